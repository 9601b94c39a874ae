/** The appearance form's values, to and from the site's customization. */
import type { Customization } from './types';

/** `<input type="color">` takes #rrggbb only; the API also allows #rgb. */
export function sixDigitColor(color: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  return short
    ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase()
    : color.toLowerCase();
}

/** The customization with the form's values: an empty title or logo removes it. */
export function withAppearance(
  current: Customization,
  form: { title: string; logo: string; light: string; dark: string },
): Customization {
  const { title: _title, ...rest } = current;
  const { logo: _logo, ...header } = current.header;
  const title = form.title.trim();
  const logo = form.logo.trim();
  return {
    ...rest,
    ...(title ? { title } : {}),
    styling: { ...current.styling, primaryColor: { light: form.light, dark: form.dark } },
    header: { ...header, ...(logo ? { logo: { light: logo, dark: logo } } : {}) },
  };
}
