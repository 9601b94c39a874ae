/**
 * The site's colors as CSS custom properties. A primary color is whatever the site chose, so the
 * variants used for text are derived here until they reach WCAG AA contrast (4.5:1) on the theme's
 * background: a site never renders links a reader cannot read, whatever its brand color.
 */
type Rgb = [number, number, number];

const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** `#abc` / `#aabbcc` → rgb; anything else (never stored: the schema checks) → null. */
export function parseHex(value: string | undefined): Rgb | null {
  if (!value || !HEX.test(value)) return null;
  const hex = value.length === 4 ? [...value.slice(1)].map((c) => c + c).join('') : value.slice(1);
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function mix(a: Rgb, b: Rgb, weight: number): Rgb {
  return a.map((c, i) => c + ((b[i] as number) - c) * weight) as Rgb;
}

/** `color`, moved toward black or white (whichever contrasts with `background`) until it reads on it. */
export function readableOn(color: Rgb, background: Rgb, ratio = 4.5): Rgb {
  const toward: Rgb = luminance(background) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 20; step++) {
    const candidate = mix(color, toward, step / 20);
    if (contrast(candidate, background) >= ratio) return candidate;
  }
  return toward;
}

/** Black or white, whichever reads better on `background` (text of primary buttons). */
export function textOn(background: Rgb): Rgb {
  return contrast([255, 255, 255], background) >= contrast([17, 17, 17], background) ? [255, 255, 255] : [17, 17, 17];
}

export const LIGHT_BACKGROUND: Rgb = [255, 255, 255];
export const DARK_BACKGROUND: Rgb = [17, 19, 24];

export interface SiteColors {
  primary: { light: string; dark: string };
  tint?: { light: string; dark: string };
  hints: Record<'info' | 'success' | 'warning' | 'danger', { light: string; dark: string }>;
}

/** The custom properties of a site's colors (both themes), as one CSS rule's declarations. */
export function colorVariables(colors: SiteColors): string {
  const out: string[] = [];
  const put = (name: string, theme: 'light' | 'dark', value: Rgb) => out.push(`--${name}-${theme}:${toHex(value)}`);
  for (const theme of ['light', 'dark'] as const) {
    const background = theme === 'light' ? LIGHT_BACKGROUND : DARK_BACKGROUND;
    const primary = parseHex(colors.primary[theme]) ?? [52, 109, 219];
    put('primary', theme, primary);
    put('on-primary', theme, textOn(primary));
    // The tint colours the page's surfaces lightly, keeping text contrast.
    const tintColor = parseHex(colors.tint?.[theme]);
    const tint = tintColor
      ? mix(background, tintColor, theme === 'light' ? 0.06 : 0.1)
      : mix(background, primary, 0.04);
    put('tint', theme, tint);
    // Links are also drawn on the tint (the sidebar's current page), so they must read on both.
    put('link', theme, readableOn(readableOn(primary, tint), background));
    for (const [name, value] of Object.entries(colors.hints)) {
      const hint = parseHex(value[theme]) ?? primary;
      put(`hint-${name}`, theme, readableOn(hint, background, 3));
      put(`hint-${name}-bg`, theme, mix(background, hint, theme === 'light' ? 0.08 : 0.16));
    }
  }
  return out.join(';');
}
