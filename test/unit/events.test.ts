/** The pure pieces of events: subscriptions, the `previous` of an update, retry jitter. */
import { describe, expect, it } from 'vitest';
import { previousValues } from '../../src/events/changes.js';
import { isSubscribable, subscribes } from '../../src/events/types.js';
import { withJitter } from '../../src/events/webhooks/deliver.js';

describe('subscriptions', () => {
  it('match a type, a family (at any depth) or everything', () => {
    expect(subscribes(['*'], 'space.created')).toBe(true);
    expect(subscribes(['space.created'], 'space.created')).toBe(true);
    expect(subscribes(['space.created'], 'space.updated')).toBe(false);
    expect(subscribes(['space.*'], 'space.content.updated')).toBe(true);
    expect(subscribes(['space.*'], 'spaces.created')).toBe(false);
    expect(subscribes(['team.members.*'], 'team.members.updated')).toBe(true);
    expect(subscribes(['team.members.*'], 'team.created')).toBe(false);
    expect(subscribes([], 'space.created')).toBe(false);
  });

  it('accept only known types and families', () => {
    expect(isSubscribable('*')).toBe(true);
    expect(isSubscribable('change_request.merged')).toBe(true);
    expect(isSubscribable('change_request.*')).toBe(true);
    expect(isSubscribable('change_request.exploded')).toBe(false);
    expect(isSubscribable('nothing.*')).toBe(false);
    expect(isSubscribable('space')).toBe(false);
    expect(isSubscribable('*.created')).toBe(false);
  });
});

describe('previousValues', () => {
  it('keeps the changed fields as they were, compares structures, ignores updatedAt', () => {
    const before = { title: 'A', tags: ['x'], nested: { a: 1 }, updatedAt: '1', same: true, gone: 'g' };
    const after = { title: 'B', tags: ['x'], nested: { a: 2 }, updatedAt: '2', same: true, added: 1 };
    expect(previousValues(before, after as never)).toEqual({ title: 'A', nested: { a: 1 }, gone: 'g', added: null });
    expect(previousValues({ a: 1 }, { a: 1 })).toEqual({});
  });
});

describe('withJitter', () => {
  it('stays within ±20 % of the delay', () => {
    expect(withJitter(1000, 0)).toBe(800);
    expect(withJitter(1000, 0.5)).toBe(1000);
    expect(withJitter(1000, 0.999999)).toBe(1200);
  });
});
