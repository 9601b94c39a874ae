import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../api/types';
import { moveBefore, moveStep, without } from './tree-ops';

const page = (id: string, pages: RevisionPage[] = [], type: RevisionPage['type'] = 'document'): RevisionPage => ({
  id,
  title: id,
  type,
  pages,
});

// g (group) > [a > [a1], b], c, l (link)
const tree = (): RevisionPage[] => [
  page('g', [page('a', [page('a1')]), page('b')], 'group'),
  page('c'),
  page('l', [], 'link'),
];

describe('moveStep', () => {
  it('moves up and down among siblings, counting without the moved page', () => {
    expect(moveStep(tree(), 'b', 'up')).toEqual({ operation: 'update_page', page: 'b', into: 'g', at: 0 });
    expect(moveStep(tree(), 'a', 'down')).toEqual({ operation: 'update_page', page: 'a', into: 'g', at: 1 });
    expect(moveStep(tree(), 'c', 'up')).toEqual({ operation: 'update_page', page: 'c', into: null, at: 0 });
  });

  it('offers nothing past the ends', () => {
    expect(moveStep(tree(), 'a', 'up')).toBeNull();
    expect(moveStep(tree(), 'b', 'down')).toBeNull();
    expect(moveStep(tree(), 'g', 'outdent')).toBeNull();
    expect(moveStep(tree(), 'nope', 'up')).toBeNull();
  });

  it('indents under the page above, never under a link nor a group under anything', () => {
    expect(moveStep(tree(), 'b', 'indent')).toEqual({ operation: 'update_page', page: 'b', into: 'a' });
    expect(moveStep(tree(), 'c', 'indent')).toEqual({ operation: 'update_page', page: 'c', into: 'g' });
    expect(moveStep([page('l', [], 'link'), page('x')], 'x', 'indent')).toBeNull();
    expect(moveStep([page('x'), page('g2', [], 'group')], 'g2', 'indent')).toBeNull();
  });

  it('outdents to just after the parent', () => {
    expect(moveStep(tree(), 'a1', 'outdent')).toEqual({ operation: 'update_page', page: 'a1', into: 'g', at: 1 });
    expect(moveStep(tree(), 'b', 'outdent')).toEqual({ operation: 'update_page', page: 'b', into: null, at: 1 });
  });
});

describe('moveBefore', () => {
  it('puts the page before the target, in the target list', () => {
    expect(moveBefore(tree(), 'c', 'b')).toEqual({ operation: 'update_page', page: 'c', into: 'g', at: 1 });
    expect(moveBefore(tree(), 'g', 'l')).toEqual({ operation: 'update_page', page: 'g', into: null, at: 1 });
  });

  it('refuses moves into itself, a group under a page, and no-ops', () => {
    expect(moveBefore(tree(), 'a', 'a1')).toBeNull();
    expect(moveBefore(tree(), 'g', 'a')).toBeNull();
    expect(moveBefore(tree(), 'c', 'c')).toBeNull();
  });
});

describe('without', () => {
  it('leaves a page and its subpages out, at any depth', () => {
    expect(without(tree(), 'a')[0]?.pages?.map((p) => p.id)).toEqual(['b']);
    expect(without(tree(), 'c').map((p) => p.id)).toEqual(['g', 'l']);
  });
});
