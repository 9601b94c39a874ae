/**
 * Asks before something that cannot be undone (Radix AlertDialog: focus kept inside, Escape and
 * "Cancel" leave it unchanged). The trigger is the button that starts it (or, without one, the
 * caller opens it: `open`, `onOpenChange`); `onConfirm` runs the change and the dialog closes when it
 * succeeds, staying open with the API's message when it is refused.
 */
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useId, useState } from 'react';

export function ConfirmDialog({
  trigger,
  open: openAsked,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending,
  error,
}: {
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  pending?: boolean;
  error?: string;
}) {
  const [openHere, setOpenHere] = useState(false);
  const open = openAsked ?? openHere;
  const setOpen = (next: boolean) => {
    setOpenHere(next);
    onOpenChange?.(next);
  };
  const errorId = useId();
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description>{description}</AlertDialog.Description>
          {error ? (
            <p id={errorId} role="alert" className="error">
              {error}
            </p>
          ) : null}
          <div className="actions dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button">Cancel</button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that closes at once, and the dialog stays open on an error. */}
            <button
              type="button"
              className="danger"
              disabled={pending}
              aria-describedby={error ? errorId : undefined}
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
