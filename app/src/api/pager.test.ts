import { describe, expect, it } from 'vitest';
import { back, current, forward } from './pager';

describe('the pager trail', () => {
  it('starts on the first page, goes forward by cursors and back to the first page', () => {
    let trail = forward([], 'a');
    trail = forward(trail, 'b');
    expect(current(trail)).toBe('b');
    trail = back(trail);
    expect(current(trail)).toBe('a');
    trail = back(trail);
    expect(current(trail)).toBeUndefined();
    expect(back(trail)).toEqual([]);
  });
});
