/**
 * Property: every document of the official format (test/helpers/document-arbitraries.ts) survives
 * Document → editor → Document unchanged, through ProseMirror, and the editor maps each of its
 * blocks natively (an atom only for a link or annotation with no text, which no mark can hold).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeText } from '../../src/content/document.js';
import type { EditorNode } from '../../src/document-model/index.js';
import { documentArbitrary } from '../helpers/document-arbitraries.js';
import { expectLossless } from '../helpers/document-model.js';

function atoms(node: EditorNode, out: EditorNode[] = []): EditorNode[] {
  if (node.type === 'blockAtom' || node.type === 'inlineAtom') out.push(node);
  for (const mark of node.marks ?? []) if (mark.type === 'markAtom') out.push({ type: 'markAtom', attrs: mark.attrs });
  for (const child of node.content ?? []) atoms(child, out);
  return out;
}

type Schema = { oneOf?: Array<{ $ref: string }>; properties?: { type?: { enum?: string[] } } };
const schemas = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, Schema> };
  }
).components.schemas;

/** The `type`s of the official union `name` (DocumentBlock, DocumentInline, DocumentTextMark), as `object:type`. */
function officialTypes(name: string, object: string): string[] {
  return (schemas[name]?.oneOf ?? []).flatMap(({ $ref }) =>
    (schemas[$ref.split('/').pop() as string]?.properties?.type?.enum ?? []).map((type) => `${object}:${type}`),
  );
}

/** Every `object:type` in a document. */
function typesIn(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) typesIn(item, out);
  else if (value && typeof value === 'object') {
    const { object, type } = value as { object?: unknown; type?: unknown };
    if (typeof object === 'string' && typeof type === 'string') out.add(`${object}:${type}`);
    for (const child of Object.values(value)) typesIn(child, out);
  }
  return out;
}

/** `value` with every object's keys in reverse order: a document as another writer might spell it. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversedKeys(item)]),
  );
}

describe('document model: property', () => {
  it('maps every document of the official schema losslessly, natively where the editor can', () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        const json = expectLossless(document);
        for (const atom of atoms(json)) {
          const held = atom.attrs?.json as { type: string };
          if (!['link', 'annotation'].includes(held.type) || nodeText(held) !== '') {
            throw new Error(`unexpected atom: ${JSON.stringify(held).slice(0, 300)}`);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('gives every document back byte for byte, whatever order its objects list their properties in', () => {
    // expectLossless compares JSON.stringify too: key order counts (issue #34, "without losing a byte").
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        expectLossless(reversedKeys(document));
      }),
      { numRuns: 200 },
    );
  });

  it('draws every block, inline and mark of the official schema (a fixed sample, mapped losslessly too)', () => {
    const seen = new Set<string>();
    for (const document of fc.sample(documentArbitrary, { seed: 1, numRuns: 200 })) {
      typesIn(document, seen);
      expectLossless(document);
    }
    const official = [
      ...officialTypes('DocumentBlock', 'block'),
      ...officialTypes('DocumentInline', 'inline'),
      ...officialTypes('DocumentTextMark', 'mark'),
    ];
    expect(official.length).toBeGreaterThan(50);
    expect(official.filter((type) => !seen.has(type))).toEqual([]);
  });
});
