import { describe, expect, it } from 'vitest';
import { BLOCKS, matchBlocks } from './blocks';

const all = Object.fromEntries(BLOCKS.map((b) => [b.node, {}]));
const titles = (nodes: Record<string, unknown>, q: string) => matchBlocks(nodes, q).map((b) => b.title);

describe('matchBlocks', () => {
  it('offers every block when nothing is typed', () => {
    expect(titles(all, '')).toEqual(BLOCKS.map((b) => b.title));
  });

  it('finds by title before keyword, ignoring case', () => {
    expect(titles(all, 'CODE')).toEqual(['Code block']);
    expect(titles(all, 'list')).toEqual(['Bulleted list', 'Numbered list', 'Task list']);
    expect(titles(all, 'todo')).toEqual(['Task list']);
    expect(titles(all, 'zzz')).toEqual([]);
  });

  it('leaves out blocks the schema lacks', () => {
    const { table: _t, hint: _h, ...some } = all;
    expect(titles(some, 'table')).toEqual([]);
    expect(titles(some, 'hint')).toEqual([]);
    expect(titles(all, 'hint')).toEqual(['Hint']);
  });
});
