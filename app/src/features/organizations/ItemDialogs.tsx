/**
 * The dialogs that change the organization's tree (the app's Modal and ConfirmDialog: focus kept
 * inside, Escape closes, the title names the dialog). Each shows the API's error next to its control
 * and closes only once the API has agreed. The caller mounts a dialog as it opens (its fields start fresh).
 */
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ConfirmDialog } from '../controls/ConfirmDialog';
import { CloseButton, Modal } from '../controls/Modal';
import type { MoveTarget } from './tree';

/** What a dialog needs of a mutation (a TanStack mutation is one). */
export interface DialogAction<T> {
  mutate(input: T, options: { onSuccess: (result: unknown) => void }): void;
  isPending: boolean;
  error: Error | null;
  reset(): void;
}

export function TitleDialog({
  open,
  onOpenChange,
  heading,
  label,
  submitLabel,
  initial = '',
  mutation,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  heading: string;
  label: string;
  submitLabel: string;
  initial?: string;
  mutation: DialogAction<string>;
  onDone?: (result: unknown) => void;
}) {
  const [title, setTitle] = useState(initial);
  return (
    <FieldDialog
      open={open}
      onOpenChange={onOpenChange}
      heading={heading}
      label={label}
      submitLabel={submitLabel}
      mutation={mutation}
      send={(onSuccess) => {
        if (title.trim()) mutation.mutate(title.trim(), { onSuccess });
      }}
      onDone={onDone}
      field={(field) => (
        <input
          {...field}
          type="text"
          required
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          aria-invalid={mutation.error ? true : undefined}
        />
      )}
    />
  );
}

export function MoveDialog({
  open,
  onOpenChange,
  title,
  currentParent,
  targets,
  mutation,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  currentParent: string | null;
  targets: MoveTarget[];
  mutation: DialogAction<string | null>;
}) {
  const [target, setTarget] = useState<string>(currentParent ?? '');
  return (
    <FieldDialog
      open={open}
      onOpenChange={onOpenChange}
      heading={`Move “${title}”`}
      label="Move to"
      submitLabel="Move"
      mutation={mutation}
      send={(onSuccess) => mutation.mutate(target || null, { onSuccess })}
      field={(field) => (
        <select {...field} value={target} onChange={(e) => setTarget(e.target.value)}>
          {targets.map((t) => (
            <option key={t.id ?? ''} value={t.id ?? ''}>
              {`${'\u2003'.repeat(Math.max(0, t.depth - 1))}${t.label}`}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * A dialog of one labelled field: submitting calls `send`, and the dialog closes once the change
 * succeeds; the API's refusal shows under the field, which it describes.
 */
function FieldDialog({
  open,
  onOpenChange,
  heading,
  label,
  submitLabel,
  mutation,
  send,
  onDone,
  field,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  heading: string;
  label: string;
  submitLabel: string;
  mutation: Pick<DialogAction<unknown>, 'isPending' | 'error'>;
  send: (onSuccess: (result: unknown) => void) => void;
  onDone?: (result: unknown) => void;
  /** The control, given its id and the description pointing at the error. */
  field: (props: { id: string; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const fieldId = useId();
  const errorId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    send((result) => {
      onOpenChange(false);
      onDone?.(result);
    });
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={heading}>
      <form onSubmit={submit}>
        <label htmlFor={fieldId}>{label}</label>
        {field({ id: fieldId, 'aria-describedby': mutation.error ? errorId : undefined })}
        {mutation.error ? (
          <p id={errorId} role="alert" className="error">
            {mutation.error.message}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={mutation.isPending}>
            {submitLabel}
          </button>
          <CloseButton>Cancel</CloseButton>
        </div>
      </form>
    </Modal>
  );
}

export function DeleteDialog({
  open,
  onOpenChange,
  title,
  kind,
  mutation,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  kind: 'space' | 'collection';
  mutation: DialogAction<void>;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete “${title}”?`}
      description={
        kind === 'space' ? 'The space and its content are deleted.' : 'The collection is deleted, with what it holds.'
      }
      confirmLabel="Delete"
      pending={mutation.isPending}
      error={mutation.error?.message}
      onConfirm={() => new Promise((resolve) => mutation.mutate(undefined, { onSuccess: resolve }))}
    />
  );
}
