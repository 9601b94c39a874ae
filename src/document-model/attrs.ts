/** The properties of a format object as editor attributes, and back. */
import type { EditorNode } from './types.js';

export type Value = Record<string, unknown>;

export const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type FormatAttrs = { key: unknown; data: unknown; extra: unknown; order: string[] | null };

/**
 * The keys of `value` when writing it back as `written` (the order a writer produces) would spell
 * them in another order, else null: kept so that a document comes back byte for byte, not only
 * deep-equal (issue #34), at no cost for documents already in the usual order.
 */
export function keyOrder(value: Value, written: string[]): string[] | null {
  const keys = Object.keys(value);
  return keys.length === written.length && keys.every((key, i) => key === written[i]) ? null : keys;
}

/** `value` with its keys in `order` (those it has), then its other keys (new ones) as they are. */
export function inKeyOrder<T extends Value>(value: T, order: unknown): T {
  if (!Array.isArray(order)) return value;
  const out: Value = {};
  for (const key of order) if (typeof key === 'string' && Object.hasOwn(value, key)) out[key] = value[key];
  for (const [key, item] of Object.entries(value)) if (!Object.hasOwn(out, key)) out[key] = item;
  return out as T;
}

/**
 * `key` and `data` when of the format's types, in `extra` every other property but those in `skip`
 * (the node's children, written after the rest), and `order` when the properties came otherwise.
 */
export function formatAttrs(node: Value, skip: string[]): FormatAttrs {
  const extra: Value = {};
  for (const [name, value] of Object.entries(node)) {
    if (name === 'object' || name === 'type' || skip.includes(name)) continue;
    if (name === 'key' && typeof value === 'string') continue;
    if (name === 'data' && isObject(value)) continue;
    extra[name] = value;
  }
  const key = typeof node.key === 'string' ? node.key : null;
  const data = isObject(node.data) ? node.data : null;
  // What elementFromAttrs writes: object, type, key, the rest, data, then the children.
  const written = [
    ...['object', 'type'].filter((name) => Object.hasOwn(node, name)),
    ...(key === null ? [] : ['key']),
    ...Object.keys(extra),
    ...(data === null ? [] : ['data']),
    ...skip.filter((name) => Object.hasOwn(node, name)),
  ];
  return { key, data, extra: Object.keys(extra).length > 0 ? extra : null, order: keyOrder(node, written) };
}

/** The format object of `type` from its attributes, with `body` (its `nodes` or `fragments`). */
export function elementFromAttrs(
  object: 'block' | 'inline',
  type: string,
  attrs: EditorNode['attrs'],
  body: Value = {},
): Value {
  const { key, data, extra, order } = (attrs ?? {}) as Partial<FormatAttrs>;
  const element = {
    object,
    type,
    ...(typeof key === 'string' ? { key } : {}),
    ...(isObject(extra) ? extra : {}),
    ...(isObject(data) ? { data } : {}),
    ...body,
  };
  return inKeyOrder(element, order);
}
