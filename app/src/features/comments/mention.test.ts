import { describe, expect, it } from 'vitest';
import { insertMention, mentionedUserIds, mentionHandle, typedMention } from './mention';

describe('mentions in a comment', () => {
  it('uses the e-mail address when the API reads it as one, else the user id', () => {
    expect(mentionHandle({ id: 'u1', email: 'ada@example.com' })).toBe('ada@example.com');
    // A dot before the @ is not in the API's pattern: the id is what it reads.
    expect(mentionHandle({ id: 'u1', email: 'ada.l@example.com' })).toBe('u1');
    expect(mentionHandle({ id: 'u1' })).toBe('u1');
  });

  it('sees an @ typed at the start, after a space or a bracket, not inside a word', () => {
    expect(typedMention('@', 1)).toBe(0);
    expect(typedMention('hi @', 4)).toBe(3);
    expect(typedMention('(@', 2)).toBe(1);
    expect(typedMention('ada@', 4)).toBeNull();
    expect(typedMention('hi', 2)).toBeNull();
    expect(typedMention('', 0)).toBeNull();
  });

  it('replaces the typed @ with the mention and puts the caret after it', () => {
    const out = insertMention('hi @ there', 4, 'u1', 3);
    expect(out).toEqual({ text: 'hi @u1 there', caret: 7 });
  });

  it('inserts at the caret, after a space when the caret follows a word', () => {
    expect(insertMention('thanks', 6, 'u1', null)).toEqual({ text: 'thanks @u1 ', caret: 11 });
    expect(insertMention('', 0, 'u1', null)).toEqual({ text: '@u1 ', caret: 4 });
    expect(insertMention('a  b', 2, 'u1', null)).toEqual({ text: 'a @u1 b', caret: 6 });
  });
});

describe('who a comment mentions', () => {
  const mention = (user: string) => ({
    object: 'inline',
    type: 'mention',
    isVoid: true,
    data: { ref: { kind: 'user', user } },
  });
  it('finds user mentions at any depth, once each, and nothing else', () => {
    const document = {
      object: 'document',
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [mention('u1'), { object: 'text', leaves: [] }, mention('u2')] },
        {
          object: 'block',
          type: 'list-unordered',
          nodes: [{ object: 'block', type: 'list-item', nodes: [mention('u1')] }],
        },
        { object: 'inline', type: 'mention', data: { ref: { kind: 'page', page: 'p1' } } },
      ],
    };
    expect(mentionedUserIds(document)).toEqual(['u1', 'u2']);
    expect(mentionedUserIds({ object: 'document', nodes: [] })).toEqual([]);
  });
});
