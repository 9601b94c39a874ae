/**
 * A modal dialog on the browser's own `<dialog>` (`showModal`: focus kept inside, Escape closes, the
 * rest of the page inert). Not Radix's Dialog here: its scroll lock injects a `<style>` element,
 * which the app's Content-Security-Policy (style-src 'self') refuses.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId} onClose={onClose}>
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
