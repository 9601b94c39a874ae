import { describe, expect, it } from 'vitest';
import { splitMarks, unescapeHtml } from './marks';

describe('search marks', () => {
  it('cuts a text into marked and plain parts, keeping any other markup as text', () => {
    expect(splitMarks('an <mark>apple</mark> and <b>x</b> <mark>pie</mark>')).toEqual([
      { text: 'an ', marked: false },
      { text: 'apple', marked: true },
      { text: ' and <b>x</b> ', marked: false },
      { text: 'pie', marked: true },
    ]);
    expect(splitMarks('plain')).toEqual([{ text: 'plain', marked: false }]);
  });
});

describe('escaped bodies', () => {
  it('reads the entities the API escapes', () => {
    expect(unescapeHtml('a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;')).toBe(`a <b> & "c" 'd'`);
  });
});
