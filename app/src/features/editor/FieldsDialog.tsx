/** A small form in a dialog: a few labelled text fields, "Save" and "Cancel" (rename, emoji, new link…). */
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../controls/Modal';

export interface Field {
  name: string;
  label: string;
  value?: string;
  type?: 'text' | 'url';
  required?: boolean;
  maxLength?: number;
}

export function FieldsDialog({
  title,
  fields,
  onSave,
  onClose,
}: {
  title: string;
  fields: Field[];
  onSave: (values: Record<string, string>) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f.name, f.value ?? ''])));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(values);
  };
  return (
    <Modal open onOpenChange={(next) => next || onClose()} title={title}>
      <form onSubmit={submit} className="fields-form">
        {fields.map((field, index) => (
          <p key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              type={field.type ?? 'text'}
              value={values[field.name] ?? ''}
              required={field.required}
              maxLength={field.maxLength}
              // The first field is what the dialog is for.
              // biome-ignore lint/a11y/noAutofocus: focus moves into the dialog that was just opened
              autoFocus={index === 0}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
            />
          </p>
        ))}
        <div className="actions">
          <button type="submit">Save</button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
