/**
 * The semantic diff of two revisions' contents, for the changes no API edit makes on its own: a
 * file whose bytes changed under the same id, link targets, group pages, fields the official
 * attributes cannot name, moves to and from the top level, and reordering among siblings.
 */
import { describe, expect, it } from 'vitest';
import { type Content, semanticChanges } from '../../src/content/semantic-changes.js';
import type { FileEntry, PageNode } from '../../src/content/store.js';

const page = (id: string, fields: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  children: [],
  ...fields,
});

const file = (id: string, fields: Partial<FileEntry> = {}): FileEntry => ({
  id,
  name: `${id}.png`,
  contentType: 'image/png',
  size: 10,
  blob: `blob-${id}`,
  oid: `oid-${id}`,
  ...fields,
});

const content = (pages: PageNode[], files: FileEntry[] = [], reusableContents: Content['reusableContents'] = []) => ({
  pages,
  files,
  reusableContents,
});

describe('semanticChanges', () => {
  it('is empty between equal contents', () => {
    const c = content([page('a', { children: [page('b')] })], [file('f')], [{ id: 'r', title: 'R' }]);
    expect(semanticChanges(c, c)).toEqual([]);
  });

  it('reports a file whose bytes, size and dimensions changed under the same id', () => {
    const before = content([], [file('f', { dimensions: { width: 1, height: 1 } })]);
    const after = content([], [file('f', { blob: 'other', size: 20, dimensions: { width: 2, height: 3 } })]);
    const [change] = semanticChanges(before, after);
    expect(change).toMatchObject({
      type: 'file_edited',
      file: { id: 'f', blob: 'other' },
      before: { id: 'f', blob: 'blob-f' },
      attributes: {
        size: { before: 10, after: 20 },
        blob: { before: 'blob-f', after: 'other' },
        dimensions: { before: { width: 1, height: 1 }, after: { width: 2, height: 3 } },
      },
    });
    const renamed = semanticChanges(
      before,
      content([], [file('f', { name: 'g.png', dimensions: { width: 1, height: 1 } })]),
    );
    expect(renamed).toEqual([
      expect.objectContaining({ type: 'file_edited', attributes: { name: { before: 'f.png', after: 'g.png' } } }),
    ]);
  });

  it('names the attributes of each page type, and only those', () => {
    const link = (target: string) => page('l', { type: 'link', target: { kind: 'url', url: target } });
    const linkChanges = semanticChanges(content([link('https://a.test')]), content([link('https://b.test')]));
    expect(linkChanges).toEqual([
      {
        type: 'page_edited',
        page: { id: 'l', type: 'link', title: 'L', path: 'l' },
        attributes: {
          target: { before: { kind: 'url', url: 'https://a.test' }, after: { kind: 'url', url: 'https://b.test' } },
        },
      },
    ]);
    const group = (fields: Partial<PageNode>) => page('g', { type: 'group', ...fields });
    expect(semanticChanges(content([group({ slug: 'g', emoji: '1f600' })]), content([group({ slug: 'h' })]))).toEqual([
      {
        type: 'page_edited',
        page: { id: 'g', type: 'group', title: 'G', path: 'h' },
        attributes: { slug: { before: 'g', after: 'h' }, emoji: { before: '1f600' } },
      },
    ]);
    const doc = semanticChanges(
      content([page('d')]),
      content([page('d', { description: 'About', document: 'hash-2' })]),
    );
    expect(doc[0]).toMatchObject({
      attributes: { description: { after: 'About' }, document: { after: 'hash-2' } },
    });
    // The official attributes have no icon or hidden: such an edit is not reported.
    expect(semanticChanges(content([page('d')]), content([page('d', { icon: 'star', hidden: true })]))).toEqual([]);
  });

  it('reports moves between parents (to and from the top level), not reordering among siblings', () => {
    const before = content([page('a', { children: [page('x')] }), page('b'), page('c')]);
    const after = content([page('c'), page('a'), page('x'), page('b', { children: [] })]);
    expect(semanticChanges(before, after)).toEqual([
      {
        type: 'page_moved',
        page: { id: 'x', type: 'document', title: 'X', path: 'x' },
        parent: { before: { id: 'a', type: 'document', title: 'A', path: 'a' } },
      },
    ]);
    const into = semanticChanges(after, before);
    expect(into).toEqual([
      {
        type: 'page_moved',
        page: { id: 'x', type: 'document', title: 'X', path: 'a/x' },
        parent: { after: { id: 'a', type: 'document', title: 'A', path: 'a' } },
      },
    ]);
  });

  it('lists pages in the new tree order, removed pages last, then files, then reusable contents', () => {
    const before = content([page('old'), page('kept')], [file('gone')], [{ id: 'r1', title: 'One' }]);
    const after = content(
      [page('kept', { title: 'Kept' }), page('new', { children: [page('child')] })],
      [file('added')],
      [{ id: 'r2', title: 'Two' }],
    );
    expect(semanticChanges(before, after).map((c) => c.type)).toEqual([
      'page_edited',
      'page_created',
      'page_created',
      'page_deleted',
      'file_created',
      'file_deleted',
      'reusable_content_created',
      'reusable_content_deleted',
    ]);
    const [, , child] = semanticChanges(before, after);
    expect(child).toMatchObject({ page: { id: 'child', path: 'new/child' } });
  });
});
