/**
 * A result's text with its matches marked. The API marks them with `<mark>…</mark>` in otherwise
 * plain text; only those marks become elements, everything else stays text (never HTML).
 */
import type { ReactNode } from 'react';
import { splitMarks, unescapeHtml } from './marks';

/** `html`: the text is escaped HTML with marks (a section's body), else plain text with marks. */
export function Highlighted({ text, html = false }: { text: string; html?: boolean }): ReactNode {
  const decode = html ? unescapeHtml : (s: string) => s;
  return splitMarks(text).map((part, index) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
    part.marked ? <mark key={index}>{decode(part.text)}</mark> : decode(part.text),
  );
}
