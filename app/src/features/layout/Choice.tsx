/**
 * One value out of a few, as a Radix Select (listbox semantics, keyboard and typeahead), named by the
 * `<label htmlFor={id}>` the caller puts beside it.
 */
import { Select } from 'radix-ui';

export interface Option<T extends string> {
  value: T;
  label: string;
}

export function Choice<T extends string>({
  id,
  value,
  options,
  onChange,
  placeholder,
  disabled,
}: {
  id: string;
  /** '' shows the placeholder. */
  value: T | '';
  options: readonly Option<T>[];
  onChange: (value: T) => void;
  placeholder?: string;
  disabled?: boolean;
}) {
  return (
    <Select.Root value={value || undefined} onValueChange={(v) => onChange(v as T)} disabled={disabled}>
      <Select.Trigger id={id} className="select-trigger">
        <Select.Value placeholder={placeholder} />
        <Select.Icon className="select-icon" aria-hidden="true">
          ▾
        </Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content className="select-content" position="popper" sideOffset={4}>
          <Select.Viewport>
            {options.map((option) => (
              <Select.Item key={option.value} value={option.value} className="select-item">
                <Select.ItemText>{option.label}</Select.ItemText>
              </Select.Item>
            ))}
          </Select.Viewport>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}
