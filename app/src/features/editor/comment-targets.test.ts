import { describe, expect, it } from 'vitest';
import {
  commentsByBlock,
  commentText,
  markerLabel,
  newBlockKey,
  type PlacedComment,
  selectionCommentBody,
  targetOf,
} from './comment-targets';

const comment = (id: string, target: PlacedComment['target'], status = 'open'): PlacedComment => ({
  id,
  status,
  target,
  body: { markdown: `text of ${id}` },
});

describe('targetOf', () => {
  it('reads the official objects and plain ids', () => {
    expect(targetOf(comment('a', { page: { id: 'p1' }, node: { id: 'k1' } }))).toEqual({ page: 'p1', node: 'k1' });
    expect(targetOf(comment('b', { page: 'p1' }))).toEqual({ page: 'p1', node: undefined });
    expect(targetOf({ id: 'c' })).toEqual({ page: undefined, node: undefined });
  });
});

describe('commentsByBlock', () => {
  const comments = [
    comment('page-wide', { page: { id: 'p1' } }),
    comment('on-k1', { page: { id: 'p1' }, node: { id: 'k1' } }),
    comment('again-k1', { page: { id: 'p1' }, node: { id: 'k1' } }),
    comment('resolved', { page: { id: 'p1' }, node: { id: 'k1' } }, 'resolved'),
    comment('other-page', { page: { id: 'p2' }, node: { id: 'k1' } }),
    comment('no-page', {}),
  ];

  it('groups the open comments of the page by block, the page-wide ones under ""', () => {
    const grouped = commentsByBlock(comments, 'p1');
    expect([...grouped.keys()]).toEqual(['', 'k1']);
    expect(grouped.get('k1')?.map((c) => c.id)).toEqual(['on-k1', 'again-k1']);
    expect(grouped.get('')?.map((c) => c.id)).toEqual(['page-wide']);
  });

  it('is empty for a page without comments', () => {
    expect(commentsByBlock(comments, 'p3').size).toBe(0);
  });
});

describe('selectionCommentBody', () => {
  it('quotes the selection on one line, then the comment', () => {
    expect(selectionCommentBody('Run the\n installer.', ' Which one? ')).toBe('> Run the installer.\n\nWhich one?');
  });

  it('shortens a long selection and leaves out an empty one', () => {
    const body = selectionCommentBody('x'.repeat(500), 'Too long');
    expect(body.split('\n')[0]).toHaveLength(2 + 300);
    expect(body.endsWith('…\n\nToo long')).toBe(true);
    expect(selectionCommentBody('  ', 'Only this')).toBe('Only this');
  });
});

describe('the rest', () => {
  it('reads a Markdown body, and nothing from a JSON one', () => {
    expect(commentText(comment('a', {}))).toBe('text of a');
    expect(commentText({ id: 'b', body: { document: {} } })).toBe('');
  });

  it('makes 20-character keys of letters and digits', () => {
    expect(newBlockKey()).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(newBlockKey(() => 0)).toBe('a'.repeat(20));
    expect(newBlockKey(() => 0.9999)).toBe('9'.repeat(20));
  });

  it('names markers by count and place', () => {
    expect(markerLabel(1, false)).toBe('1 comment on this block');
    expect(markerLabel(3, true)).toBe('3 comments on this page');
  });
});
