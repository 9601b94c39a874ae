/**
 * The properties the official format requires (src/document-model/required.ts): the table matches
 * the official OpenAPI document, every generated document of the format passes, and a document
 * lacking one is refused naming it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDocumentModel } from '../../src/document-model/index.js';
import { REQUIRED } from '../../src/document-model/required.js';
import { documentArbitrary } from '../helpers/document-arbitraries.js';

type Schema = {
  oneOf?: Array<{ $ref: string }>;
  required?: string[];
  properties?: { type?: { enum?: string[] }; data?: { required?: string[] } };
};
const schemas = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, Schema> };
  }
).components.schemas;

describe('document model: required properties', () => {
  it('requires what the official schema requires of each block, inline and mark', () => {
    const official = new Map<string, string[]>();
    for (const [union, object] of [
      ['DocumentBlock', 'block'],
      ['DocumentInline', 'inline'],
      ['DocumentTextMark', 'mark'],
    ] as const) {
      for (const { $ref } of schemas[union]?.oneOf ?? []) {
        const schema = schemas[$ref.split('/').pop() as string] as Schema;
        const own = (schema.required ?? []).filter((name) => name !== 'object' && name !== 'type');
        const data = (schema.properties?.data?.required ?? []).map((name) => `data.${name}`);
        for (const type of schema.properties?.type?.enum ?? []) official.set(`${object}:${type}`, [...own, ...data]);
      }
    }
    expect(official.size).toBeGreaterThan(50);
    const sorted = (map: ReadonlyMap<string, string[]>) =>
      Object.fromEntries([...map].map(([kind, fields]) => [kind, [...fields].sort()]).sort());
    expect(sorted(REQUIRED)).toEqual(sorted(official));
  });

  it('accepts every generated document of the format', () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        checkDocumentModel(document);
      }),
      { numRuns: 100 },
    );
  });

  it('names the first property missing, in a block, an inline, a leaf or a fragment', () => {
    const leaf = { object: 'leaf', text: 'a', marks: [] };
    const p = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [leaf] }] };
    const cases: Array<[unknown[], string]> = [
      [[{ object: 'block', type: 'heading-1', nodes: p.nodes }], 'nodes/0/data: is required (a "heading-1" block)'],
      [[{ object: 'block', type: 'code', data: {} }], 'nodes/0/nodes: is required (a "code" block)'],
      [
        [{ ...p, nodes: [{ object: 'inline', type: 'emoji', isVoid: true, data: {} }] }],
        'nodes/0/nodes/0/data/code: is required (a "emoji" inline)',
      ],
      [
        [{ ...p, nodes: [{ object: 'text', leaves: [{ ...leaf, marks: [{ object: 'mark', type: 'color' }] }] }] }],
        'nodes/0/nodes/0/leaves/0/marks/0/data: is required (a "color" mark)',
      ],
    ];
    for (const [nodes, message] of cases) {
      expect(() => checkDocumentModel({ object: 'document', nodes })).toThrow(message);
    }
    // Types the format does not list are the editor's atoms: nothing is required of them.
    expect(() =>
      checkDocumentModel({ object: 'document', nodes: [{ object: 'block', type: 'future' }] }),
    ).not.toThrow();
  });
});
