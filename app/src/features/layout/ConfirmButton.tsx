/**
 * A button for something that cannot be undone (remove, revoke, delete): it asks first, in a Radix
 * AlertDialog (focus moves to it, Escape or "Cancel" leaves without doing anything).
 */
import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';

export function ConfirmButton({
  children,
  label,
  title,
  description,
  confirm,
  onConfirm,
  disabled,
}: {
  /** What the button shows. */
  children: ReactNode;
  /** The button's accessible name when its text alone is not enough ("Remove Guide"). */
  label?: string;
  title: string;
  description: string;
  /** The confirming button's text ("Remove"). */
  confirm: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <button type="button" aria-label={label} disabled={disabled}>
          {children}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>{title}</AlertDialog.Title>
          <AlertDialog.Description>{description}</AlertDialog.Description>
          <div className="actions">
            <AlertDialog.Action asChild>
              <button type="button" className="danger" onClick={onConfirm}>
                {confirm}
              </button>
            </AlertDialog.Action>
            <AlertDialog.Cancel asChild>
              <button type="button">Cancel</button>
            </AlertDialog.Cancel>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
