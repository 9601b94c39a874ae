/** The properties of a format object as editor attributes, and back. */
import type { EditorNode } from './types.js';

export type Value = Record<string, unknown>;

export const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type FormatAttrs = { key: unknown; data: unknown; extra: unknown };

/** `key` and `data` when of the format's types, and in `extra` every other property but those in `skip`. */
export function formatAttrs(node: Value, skip: string[]): FormatAttrs {
  const extra: Value = {};
  for (const [name, value] of Object.entries(node)) {
    if (name === 'object' || name === 'type' || skip.includes(name)) continue;
    if (name === 'key' && typeof value === 'string') continue;
    if (name === 'data' && isObject(value)) continue;
    extra[name] = value;
  }
  return {
    key: typeof node.key === 'string' ? node.key : null,
    data: isObject(node.data) ? node.data : null,
    extra: Object.keys(extra).length > 0 ? extra : null,
  };
}

/** The format object of `type` from its attributes, with `body` (its `nodes` or `fragments`). */
export function elementFromAttrs(
  object: 'block' | 'inline',
  type: string,
  attrs: EditorNode['attrs'],
  body: Value = {},
): Value {
  const { key, data, extra } = (attrs ?? {}) as Partial<FormatAttrs>;
  return {
    object,
    type,
    ...(typeof key === 'string' ? { key } : {}),
    ...(isObject(extra) ? extra : {}),
    ...(isObject(data) ? { data } : {}),
    ...body,
  };
}
