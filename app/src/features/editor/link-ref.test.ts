import { describe, expect, it } from 'vitest';
import { looksLikeUrl, urlRef } from './link-ref';

describe('urlRef', () => {
  it('takes http, https and mailto addresses as URL refs', () => {
    expect(urlRef(' https://example.com/a ')).toEqual({ kind: 'url', url: 'https://example.com/a' });
    expect(urlRef('http://example.com')).toEqual({ kind: 'url', url: 'http://example.com' });
    expect(urlRef('mailto:a@example.com')).toEqual({ kind: 'url', url: 'mailto:a@example.com' });
  });
  it('refuses script and other schemes, and what is not an address', () => {
    expect(urlRef('javascript:alert(1)')).toHaveProperty('error');
    expect(urlRef('JavaScript:alert(1)')).toHaveProperty('error');
    expect(urlRef('data:text/html,x')).toHaveProperty('error');
    expect(urlRef('example')).toHaveProperty('error');
    expect(urlRef('')).toHaveProperty('error');
  });
  it('tells an address from a search', () => {
    expect(looksLikeUrl('https://x')).toBe(true);
    expect(looksLikeUrl('Getting started')).toBe(false);
  });
});
