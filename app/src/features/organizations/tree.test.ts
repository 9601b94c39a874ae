import { describe, expect, it } from 'vitest';
import type { Collection, Space } from '../../api/types';
import { buildTree, moveTargets } from './tree';

const collection = (id: string, title: string, parent?: string): Collection => ({
  object: 'collection',
  id,
  title,
  parent,
  urls: { app: `/c/${id}` },
  permissions: { admin: false },
});
const space = (id: string, title: string, parent?: string): Space => ({
  object: 'space',
  id,
  title,
  parent,
  visibility: 'private',
  organization: 'org',
  urls: { app: `/s/${id}` },
  permissions: { admin: false },
});

describe('the organization tree', () => {
  it('nests spaces and collections by parent, collections first, then by title', () => {
    const tree = buildTree(
      [collection('c1', 'Guides'), collection('c2', 'Inner', 'c1')],
      [space('s1', 'Zeta'), space('s2', 'Alpha'), space('s3', 'In guides', 'c1'), space('s4', 'Deep', 'c2')],
    );
    expect(tree.map((n) => n.item.title)).toEqual(['Guides', 'Alpha', 'Zeta']);
    expect(tree[0]?.children.map((n) => n.item.title)).toEqual(['Inner', 'In guides']);
    expect(tree[0]?.children[0]?.children.map((n) => n.item.title)).toEqual(['Deep']);
  });

  it('puts an item whose parent the caller cannot see at the top', () => {
    const tree = buildTree([], [space('s1', 'Orphan', 'hidden-collection')]);
    expect(tree.map((n) => n.item.id)).toEqual(['s1']);
  });
});

describe('where an item may move', () => {
  const tree = buildTree(
    [collection('c1', 'Guides'), collection('c2', 'Inner', 'c1'), collection('c3', 'Archive')],
    [space('s1', 'Alpha', 'c1')],
  );

  it('offers the top and every collection, in tree order with depth', () => {
    expect(moveTargets(tree, 's1')).toEqual([
      { id: null, label: 'Top level', depth: 0 },
      { id: 'c3', label: 'Archive', depth: 1 },
      { id: 'c1', label: 'Guides', depth: 1 },
      { id: 'c2', label: 'Inner', depth: 2 },
    ]);
  });

  it('leaves out a collection itself and the collections inside it', () => {
    expect(moveTargets(tree, 'c1').map((t) => t.id)).toEqual([null, 'c3']);
    expect(moveTargets(tree, 'c2').map((t) => t.id)).toEqual([null, 'c3', 'c1']);
  });
});
