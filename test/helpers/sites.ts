/**
 * Sites for the API tests (test/api/sites.test.ts, site-profile.test.ts, site-structure.test.ts,
 * site-sections.test.ts): the sites path, a new space, a new site with its own organization, and
 * reading a site's site spaces.
 */
import { expect } from 'vitest';
import type { Harness, TestUser } from './app.js';

/** `/v1/orgs/{orgId}/sites` */
export const sitesUrl = (orgId: string) => `/v1/orgs/${orgId}/sites`;

/** Creates a space in the organization (expects 201); returns its id. */
export async function newSpace(orgId: string, admin: TestUser, title = 'Guide'): Promise<string> {
  const res = await admin.client.post(`/v1/orgs/${orgId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** What `newSite` makes: the organization, its admin, the site's API path and a way to add spaces. */
export interface Site {
  orgId: string;
  admin: TestUser;
  url: string;
  space(title?: string): Promise<string>;
}

export interface SiteOptions {
  /** Titles of spaces to create and give the site, in order. */
  spaces?: string[];
  published?: boolean;
}

/** A site titled Docs in a new organization, with new spaces titled `options.spaces`, published if asked. */
export async function newSite(h: Harness, options: SiteOptions = {}): Promise<Site> {
  const org = await h.org();
  const space = async (title = 'Guide') => {
    const res = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title });
    return res.body.id as string;
  };
  const spaces = [];
  for (const title of options.spaces ?? []) spaces.push(await space(title));
  const res = await org.admin.client.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces });
  const url = `/v1/orgs/${org.id}/sites/${res.body.id}`;
  if (options.published) await org.admin.client.post(`${url}/publish`);
  return { orgId: org.id, admin: org.admin, url, space };
}

export type Item = {
  id: string;
  default?: boolean;
  path: string;
  space: { title: string };
  urls: { published?: string };
};

/** The site's site spaces (`query`, e.g. `?default=true`). */
export const siteSpaces = async (site: Site, query = '') =>
  (await site.admin.client.get(`${site.url}/site-spaces${query}`)).body.items as Item[];

/** Site spaces as their space titles, the default marked `*`. */
export const titles = (items: Item[]) => items.map((s) => `${s.space.title}${s.default ? '*' : ''}`);
