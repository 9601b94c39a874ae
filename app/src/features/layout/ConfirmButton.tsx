/**
 * A button for something that cannot be undone (remove, revoke, delete): it asks first, in the app's
 * ConfirmDialog. The dialog closes as the change starts; the caller shows a refusal beside the list.
 */
import type { ReactNode } from 'react';
import { ConfirmDialog } from '../controls/ConfirmDialog';

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
    <ConfirmDialog
      trigger={
        <button type="button" aria-label={label} disabled={disabled}>
          {children}
        </button>
      }
      title={title}
      description={description}
      confirmLabel={confirm}
      onConfirm={async () => onConfirm()}
    />
  );
}
