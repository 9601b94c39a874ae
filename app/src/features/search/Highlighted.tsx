/**
 * A result's text with its matches marked. The API marks them with `<mark>…</mark>` in otherwise
 * plain text; only those marks become elements, everything else stays text (never HTML).
 */
import type { ReactNode } from 'react';
import { splitMarks } from './marks';

export function Highlighted({ text }: { text: string }): ReactNode {
  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
  return splitMarks(text).map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : part.text));
}
