import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../api/types';
import { findPage, firstDocument } from './pages';

describe('pages of a revision', () => {
  const pages: RevisionPage[] = [
    { id: 'g', title: 'Group', type: 'group', pages: [{ id: 'a', title: 'A', type: 'document', path: 'group/a' }] },
    {
      id: 'b',
      title: 'B',
      type: 'document',
      path: 'b',
      pages: [{ id: 'c', title: 'C', type: 'document', path: 'b/c' }],
    },
  ];
  it('finds a page by id and by path, and opens the first document', () => {
    expect(findPage(pages, { id: 'c' })?.title).toBe('C');
    expect(findPage(pages, { path: 'b/c' })?.id).toBe('c');
    expect(findPage(pages, { path: 'nope' })).toBeUndefined();
    expect(firstDocument(pages)?.id).toBe('a');
    expect(firstDocument([])).toBeUndefined();
  });
});
