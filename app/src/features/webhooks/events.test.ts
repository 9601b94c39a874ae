import { describe, expect, it } from 'vitest';
import { parseEvents } from './events';

describe('parseEvents', () => {
  it('splits on commas and spaces and drops empty items', () => {
    expect(parseEvents(' space.*, change_request.merged  ,, *\nsite.published ')).toEqual([
      'space.*',
      'change_request.merged',
      '*',
      'site.published',
    ]);
    expect(parseEvents(' , ')).toEqual([]);
  });
});
