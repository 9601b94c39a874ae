/** Asked after an image is inserted: its alt text (what screen readers say of it), saved in its data. */
import { useId, useState } from 'react';
import { Modal } from '../controls/Modal';

export function AltTextDialog({
  initial,
  onSave,
  onClose,
}: {
  initial: string;
  onSave: (alt: string) => void;
  onClose: () => void;
}) {
  const [alt, setAlt] = useState(initial);
  const fieldId = useId();
  return (
    <Modal open title="Describe the image" onOpenChange={(next) => next || onClose()}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave(alt);
          onClose();
        }}
      >
        <label htmlFor={fieldId}>Alt text</label>
        <input id={fieldId} value={alt} maxLength={500} onChange={(event) => setAlt(event.target.value)} />
        <div className="actions">
          <button type="submit">Save alt text</button>
          <button type="button" onClick={onClose}>
            Skip
          </button>
        </div>
      </form>
    </Modal>
  );
}
