/**
 * A labelled choice among a few options (Radix Select: a combobox with keyboard, typeahead and
 * ARIA semantics). Named by a visible `<label htmlFor={id}>` or by `label` (aria-label).
 */
import { Select } from 'radix-ui';
import { styleNonce } from '../../nonce';

export interface ChoiceOption<T extends string = string> {
  value: T;
  label: string;
}

export function Choice<T extends string = string>({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
  placeholder,
  describedBy,
}: {
  id?: string;
  /** The accessible name when no visible label points at `id`. */
  label?: string;
  /** '' shows the placeholder: nothing chosen yet. */
  value: T | '';
  options: readonly ChoiceOption<T>[];
  onChange: (value: T) => void;
  disabled?: boolean;
  placeholder?: string;
  describedBy?: string;
}) {
  return (
    <Select.Root value={value} onValueChange={(v) => onChange(v as T)} disabled={disabled}>
      <Select.Trigger id={id} className="choice" aria-label={label} aria-describedby={describedBy}>
        <Select.Value placeholder={placeholder} />
        <Select.Icon className="choice-icon" aria-hidden="true">
          ▾
        </Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content className="menu choice-content" position="popper" sideOffset={4}>
          {/* The viewport's own <style> (hiding its scrollbar) needs the page's nonce. */}
          <Select.Viewport nonce={styleNonce}>
            {options.map((option) => (
              <Select.Item key={option.value} value={option.value} className="menu-item choice-item">
                <Select.ItemText>{option.label}</Select.ItemText>
              </Select.Item>
            ))}
          </Select.Viewport>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}
