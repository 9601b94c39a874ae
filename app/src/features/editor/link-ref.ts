/**
 * What the "Link" dialog turns a choice into: the official ref of a link inline (`{kind: 'page',
 * page}` for a page of the space, `{kind: 'url', url}` for an address). Only http(s) and mailto
 * addresses are links: a `javascript:` (or any other scheme) is refused with a reason.
 */
export type LinkRef = { kind: 'page'; page: string } | { kind: 'url'; url: string };

/** The ref of a typed address, or the reason it cannot be one. */
export function urlRef(typed: string): Extract<LinkRef, { kind: 'url' }> | { error: string } {
  const url = typed.trim();
  if (!url) return { error: 'Type an address or choose a page' };
  if (/^mailto:[^\s]+$/i.test(url)) return { kind: 'url', url };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: 'Not an address: start it with https://, http:// or mailto:' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { error: `Links to ${parsed.protocol} addresses are not allowed: use https://, http:// or mailto:` };
  return { kind: 'url', url };
}

/** Whether what was typed is meant as an address rather than a search. */
export const looksLikeUrl = (typed: string) => /^[a-z][a-z0-9+.-]*:/i.test(typed.trim());
