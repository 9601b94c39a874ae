/**
 * The dialogs that change the organization's tree (Radix Dialog / AlertDialog: focus kept inside,
 * Escape closes, the title names the dialog). Each shows the API's error next to its control and
 * closes only once the API has agreed. The caller mounts a dialog as it opens (its fields start fresh).
 */
import { AlertDialog, Dialog } from 'radix-ui';
import { type FormEvent, useId, useState } from 'react';
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
  const fieldId = useId();
  const errorId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return;
    mutation.mutate(title.trim(), {
      onSuccess: (result) => {
        onOpenChange(false);
        onDone?.(result);
      },
    });
  }
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">{heading}</Dialog.Title>
          <form onSubmit={submit}>
            <label htmlFor={fieldId}>{label}</label>
            <input
              id={fieldId}
              type="text"
              required
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              aria-invalid={mutation.error ? true : undefined}
              aria-describedby={mutation.error ? errorId : undefined}
            />
            {mutation.error ? (
              <p id={errorId} role="alert" className="error">
                {mutation.error.message}
              </p>
            ) : null}
            <div className="actions">
              <button type="submit" disabled={mutation.isPending}>
                {submitLabel}
              </button>
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
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
  const fieldId = useId();
  const errorId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(target || null, { onSuccess: () => onOpenChange(false) });
  }
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Move “{title}”</Dialog.Title>
          <form onSubmit={submit}>
            <label htmlFor={fieldId}>Move to</label>
            <select
              id={fieldId}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              aria-describedby={mutation.error ? errorId : undefined}
            >
              {targets.map((t) => (
                <option key={t.id ?? ''} value={t.id ?? ''}>
                  {`${'\u2003'.repeat(Math.max(0, t.depth - 1))}${t.label}`}
                </option>
              ))}
            </select>
            {mutation.error ? (
              <p id={errorId} role="alert" className="error">
                {mutation.error.message}
              </p>
            ) : null}
            <div className="actions">
              <button type="submit" disabled={mutation.isPending}>
                Move
              </button>
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function DeleteDialog({
  open,
  onOpenChange,
  title,
  kind,
  mutation,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  kind: 'space' | 'collection';
  mutation: DialogAction<void>;
  onDone?: () => void;
}) {
  const errorId = useId();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">Delete “{title}”?</AlertDialog.Title>
          <AlertDialog.Description>
            {kind === 'space'
              ? 'The space and its content are deleted.'
              : 'The collection is deleted, with what it holds.'}
          </AlertDialog.Description>
          {mutation.error ? (
            <p id={errorId} role="alert" className="error">
              {mutation.error.message}
            </p>
          ) : null}
          <div className="actions">
            <AlertDialog.Cancel asChild>
              <button type="button">Cancel</button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that closes at once, and the dialog stays open on an error. */}
            <button
              type="button"
              className="danger"
              disabled={mutation.isPending}
              aria-describedby={mutation.error ? errorId : undefined}
              onClick={() =>
                mutation.mutate(undefined, {
                  onSuccess: () => {
                    onOpenChange(false);
                    onDone?.();
                  },
                })
              }
            >
              Delete
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
