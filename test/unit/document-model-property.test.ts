/**
 * Property: every document of the official format (test/helpers/document-arbitraries.ts) survives
 * Document → editor → Document unchanged, through ProseMirror, and the editor maps each of its
 * blocks natively (an atom only for a link or annotation with no text, which no mark can hold).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { nodeText } from '../../src/content/document.js';
import type { EditorNode } from '../../src/document-model/index.js';
import { documentArbitrary } from '../helpers/document-arbitraries.js';
import { expectLossless } from '../helpers/document-model.js';

function atoms(node: EditorNode, out: EditorNode[] = []): EditorNode[] {
  if (node.type === 'blockAtom' || node.type === 'inlineAtom') out.push(node);
  for (const child of node.content ?? []) atoms(child, out);
  return out;
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
});
