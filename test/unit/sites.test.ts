/** Pure parts of the sites areas: sibling order, published URLs, conditions, customization merging. */
import { describe, expect, it } from 'vitest';
import type { SiteRow } from '../../src/db/schema.js';
import { SITE_SLUG_LENGTH, slugify, uniqueSlug } from '../../src/lib/slug.js';
import { Urls } from '../../src/lib/urls.js';
import { assertExpression } from '../../src/sites/condition.js';
import { deepMerge, foldOverride } from '../../src/sites/customization.js';
import { changedPositions, placeKey } from '../../src/sites/order.js';
import { PublishedUrls } from '../../src/sites/urls.js';

const siblings = ['a', 'b', 'c'].map((key, position) => ({ key, position }));

describe('placeKey', () => {
  it('places before, after, between, or at the end', () => {
    expect(placeKey(siblings, 'c', { before: 'a' })).toEqual(['c', 'a', 'b']);
    expect(placeKey(siblings, 'a', { after: 'c' })).toEqual(['b', 'c', 'a']);
    expect(placeKey(siblings, 'c', { after: 'a', before: 'b' })).toEqual(['a', 'c', 'b']);
    expect(placeKey(siblings, 'a', undefined)).toEqual(['b', 'c', 'a']);
    expect(placeKey(siblings, 'new', {})).toEqual(['a', 'b', 'c', 'new']);
  });

  it('refuses pointers that are not siblings, or before/after that are not adjacent', () => {
    expect(() => placeKey(siblings, 'a', { before: 'z' })).toThrow(/position\/before/);
    expect(() => placeKey(siblings, 'a', { after: 'a' })).toThrow(/position\/after/);
    expect(() => placeKey(siblings, 'a', { after: 'c', before: 'b' })).toThrow(/adjacent/);
  });

  it('rewrites only the positions that change', () => {
    expect(changedPositions(siblings, ['a', 'c', 'b'])).toEqual([
      { key: 'c', position: 1 },
      { key: 'b', position: 2 },
    ]);
  });
});

describe('PublishedUrls', () => {
  const site = (fields: Partial<SiteRow>) =>
    ({ basename: 'docs', hostname: null, proxy: null, published: 1, visibility: 'public', ...fields }) as SiteRow;
  const org = { id: 'org1', hostname: null, custom_hostname: null };
  const urls = new Urls('http://host');
  const root = { path: 'intro', is_default: 1 };
  const other = { path: 'api', is_default: 0 };

  it('builds from the basename, the section and the site-space paths', () => {
    const p = new PublishedUrls(site({}), org, urls);
    expect(p.ofSite()).toBe('http://host/sites/org1/docs');
    expect(p.ofSection(root)).toBe('http://host/sites/org1/docs');
    expect(p.ofSection(other)).toBe('http://host/sites/org1/docs/api');
    expect(p.ofSiteSpace({ path: 'v2', is_default: 0 }, other)).toBe('http://host/sites/org1/docs/api/v2');
    expect(p.ofSiteSpace({ path: 'v1', is_default: 1 }, null)).toBe('http://host/sites/org1/docs');
    expect(p.ofSiteSpace({ path: 'a b', is_default: 0 }, null)).toBe('http://host/sites/org1/docs/a%20b');
  });

  it('prefers the proxy, then the hostname; only when published; the share key for share-link sites', () => {
    expect(new PublishedUrls(site({ proxy: 'acme.test/docs' }), org, urls).ofSite()).toBe('https://acme.test/docs');
    expect(new PublishedUrls(site({}), { ...org, custom_hostname: 'docs.acme.test' }, urls).ofSite()).toBe(
      'https://docs.acme.test/docs',
    );
    expect(new PublishedUrls(site({}), { ...org, hostname: 'acme' }, urls).ofSite()).toBe(
      'http://host/sites/acme/docs',
    );
    expect(new PublishedUrls(site({ published: 0 }), org, urls).ofSite()).toBeUndefined();
    const shared = new PublishedUrls(site({ visibility: 'share-link' }), org, urls, 'k3y');
    expect(shared.ofSection(other)).toBe('http://host/sites/org1/docs/api?share=k3y');
    expect(new PublishedUrls(site({}), org, urls, 'k3y').ofSite()).toBe('http://host/sites/org1/docs');
    expect(new PublishedUrls(site({ published: 0 }), org, urls).ofShareLink('k')).toBe(
      'http://host/sites/org1/docs?share=k',
    );
  });
});

describe('conditions', () => {
  it('accepts one expression, refuses anything else with the position', () => {
    expect(() => assertExpression('visitor.claims.plan === "pro" || visitor.claims.admin', 'c')).not.toThrow();
    expect(() => assertExpression('  true  ', 'c')).not.toThrow();
    expect(() => assertExpression('a &&', 'c')).toThrow(/c is not a valid expression: Unexpected token \(1:4\)/);
    expect(() => assertExpression('a b', 'c')).toThrow(/unexpected "b" at 2/);
    expect(() => assertExpression('', 'c')).toThrow(/not a valid expression/);
  });
});

describe('customization merging', () => {
  it('merges objects key by key and replaces arrays', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, l: [1] }, { a: { c: 3 }, l: [2] })).toEqual({ a: { b: 1, c: 3 }, l: [2] });
  });
  it('folds overrides: null removes, empty objects are dropped', () => {
    expect(foldOverride({ a: { b: 1, c: 2 }, t: 'x' }, { a: { b: null }, t: null, n: { m: true } })).toEqual({
      a: { c: 2 },
      n: { m: true },
    });
    expect(foldOverride({ a: { b: 1 } }, { a: { b: null } })).toEqual({});
  });
});

describe('slugs', () => {
  it('makes URL-safe, unique paths', () => {
    expect(slugify('Getting Started — Ünïcode!', { fallback: 'x', maxLength: SITE_SLUG_LENGTH })).toBe(
      'getting-started-unicode',
    );
    expect(slugify('!!!', { fallback: 'space', maxLength: SITE_SLUG_LENGTH })).toBe('space');
    expect(uniqueSlug('docs', ['docs', 'docs-2'])).toBe('docs-3');
  });
});
