/**
 * The app's dialog frame (Radix Dialog: focus kept inside, Escape closes, the title names it): the
 * overlay, the panel, its title and, when given, its description; the content is the caller's.
 * With `trigger` it opens from that button; without, the caller opens it (`open`, `onOpenChange`).
 */
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';

export function Modal({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  /** Read out with the title as the dialog opens; without one, the dialog is named by its title alone. */
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" {...(description ? {} : { 'aria-describedby': undefined })}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {description ? <Dialog.Description>{description}</Dialog.Description> : null}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The button that closes the dialog it is in without doing anything ("Cancel", "Close", "Done"). */
export function CloseButton({ children }: { children: ReactNode }) {
  return (
    <Dialog.Close asChild>
      <button type="button">{children}</button>
    </Dialog.Close>
  );
}
