/**
 * The Document format as this module reads it: the official `JSONDocument` (node_modules/@gitbook/api
 * spec, `JSONDocument` and the `Document*` objects), typed loosely on purpose. Every property a node
 * may carry is kept, whether this module knows it or not: the mapping to the editor is lossless.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface DocumentMark {
  object: 'mark';
  type: string;
  data?: JsonObject;
  [extra: string]: unknown;
}

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks?: DocumentMark[];
  [extra: string]: unknown;
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
  [extra: string]: unknown;
}

export interface DocumentElement {
  object: 'block' | 'inline';
  type: string;
  key?: string;
  isVoid?: boolean;
  data?: JsonObject;
  nodes?: DocumentNode[];
  fragments?: DocumentFragment[];
  [extra: string]: unknown;
}

export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment?: string;
  type?: string;
  nodes: DocumentNode[];
  [extra: string]: unknown;
}

export type DocumentNode = DocumentElement | DocumentText;

export interface Document {
  object: 'document';
  data?: JsonObject;
  nodes: DocumentNode[];
  [extra: string]: unknown;
}

/** The editor's JSON (TipTap's `JSONContent`, restated so the server needs no TipTap types at run time). */
export interface EditorMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface EditorNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: EditorNode[];
  marks?: EditorMark[];
  text?: string;
}

/** A document the editor cannot represent: `path` locates the node (`nodes/2/leaves/0/text`). */
export class DocumentModelError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
    this.name = 'DocumentModelError';
  }
}

/** Equality of JSON values as written, key order included (JSON.stringify: the bytes a client gets). */
export function sameJsonText(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Deep equality of JSON values (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (key) =>
      Object.hasOwn(b as object, key) &&
      sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
