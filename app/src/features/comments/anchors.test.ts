import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../document/types';
import { blockAnchor, blockLabel, commentsOnPage, generalThreads, threadsOfPage } from './anchors';
import type { Comment } from './types';

const paragraph = (text: string, key?: string): DocumentNode => ({
  object: 'block',
  type: 'paragraph',
  ...(key ? { key } : {}),
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }],
});
const comment = (id: string, target?: Comment['target'], postedAt = '2026-01-01T00:00:00Z'): Comment => ({
  id,
  body: { markdown: id },
  postedAt,
  ...(target ? { target } : {}),
});

describe('block anchors', () => {
  it('names a block by its key, else by its position', () => {
    expect(blockAnchor(paragraph('a', 'k1'), 3)).toBe('k1');
    expect(blockAnchor(paragraph('a'), 3)).toBe('block-3');
    expect(blockAnchor({ object: 'block', type: 'divider', key: '' } as DocumentNode, 0)).toBe('block-0');
  });
  it('labels a block by its first words, or its type when it has none', () => {
    expect(blockLabel(paragraph('Run the installer.'))).toBe('Run the installer.');
    expect(blockLabel(paragraph('one two  three four five six seven'))).toBe('one two three four five six…');
    expect(blockLabel({ object: 'block', type: 'divider', isVoid: true })).toBe('divider');
  });
});

describe('where comments belong', () => {
  const comments = [
    comment('general'),
    comment('page', { page: { id: 'p1' } }),
    comment('block', { page: { id: 'p1' }, node: { id: 'block-2' } }),
    comment('block-again', { page: { id: 'p1' }, node: { id: 'block-2' } }),
    comment('other page', { page: { id: 'p2' } }),
  ];
  it('splits a page into its own threads and each block’s', () => {
    const { page, blocks } = threadsOfPage(comments, 'p1');
    expect(page.map((c) => c.id)).toEqual(['page']);
    expect([...blocks.entries()].map(([k, v]) => [k, v.map((c) => c.id)])).toEqual([
      ['block-2', ['block', 'block-again']],
    ]);
  });
  it('keeps a change request’s conversation to comments on no page', () => {
    expect(generalThreads(comments).map((c) => c.id)).toEqual(['general']);
  });
  it('lists every comment on a page, its blocks’ included', () => {
    expect(commentsOnPage(comments, 'p1').map((c) => c.id)).toEqual(['page', 'block', 'block-again']);
    expect(commentsOnPage(comments, 'p3')).toEqual([]);
  });
});
