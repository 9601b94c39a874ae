/**
 * Asks before something that cannot be undone (Radix AlertDialog: focus kept inside, Escape and
 * "Cancel" leave it unchanged). The trigger is the button that starts it; `onConfirm` runs the change
 * and the dialog closes when it succeeds, staying open with the API's message when it is refused.
 */
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';

export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending,
  error,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  pending?: boolean;
  error?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description>{description}</AlertDialog.Description>
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : null}
          <div className="actions dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button">Cancel</button>
            </AlertDialog.Cancel>
            <button
              type="button"
              className="danger"
              disabled={pending}
              onClick={() => {
                onConfirm().then(
                  () => setOpen(false),
                  () => undefined, // the caller shows the error; the dialog stays open
                );
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
