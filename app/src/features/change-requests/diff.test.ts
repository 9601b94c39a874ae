import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../document/types';
import { diffBlocks } from './diff';

const p = (key: string, text: string): DocumentNode => ({
  object: 'block',
  type: 'paragraph',
  key,
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }],
});
const kinds = (before: DocumentNode[], after: DocumentNode[]) => diffBlocks(before, after).map((d) => d.kind);

describe('diffBlocks', () => {
  it('marks nothing for the same document', () => {
    expect(kinds([p('a', 'x'), p('b', 'y')], [p('a', 'x'), p('b', 'y')])).toEqual(['same', 'same']);
  });
  it('marks an added, a removed and a changed block, and keeps the rest', () => {
    const before = [p('a', 'one'), p('b', 'two'), p('c', 'three'), p('d', 'four')];
    const after = [p('a', 'one'), p('b', 'TWO'), p('d', 'four'), p('e', 'five')];
    expect(kinds(before, after)).toEqual(['same', 'changed', 'removed', 'same', 'added']);
  });
  it('compares content, not keys: a block re-keyed with the same content is the same', () => {
    expect(kinds([p('a', 'x')], [p('z', 'x')])).toEqual(['same']);
  });
  it('handles empty sides', () => {
    expect(kinds([], [p('a', 'x')])).toEqual(['added']);
    expect(kinds([p('a', 'x')], [])).toEqual(['removed']);
  });
});
