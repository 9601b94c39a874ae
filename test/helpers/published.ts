/**
 * A published docs site built through the API, for the tests of the reader-facing site: two spaces
 * with pages of every kind (nested pages, a group, a link page, code, a hint, a table, a task list,
 * an image file, links between pages and across spaces), a site with two sections, published.
 */
import { expect } from 'vitest';
import type { Client, Harness, TestUser } from './app.js';
import { PNG } from './fixtures.js';

export interface Change {
  operation: string;
  [key: string]: unknown;
}

/** Applies `batches` (each may use the ids made by the ones before) in one change request, then merges it. */
export async function edit(
  client: Client,
  spaceId: string,
  batches: Array<(ids: Record<string, string>) => Change[]>,
): Promise<Record<string, string>> {
  const cr = await client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Content' });
  expect(cr.status).toBe(201);
  const ids: Record<string, string> = {};
  for (const batch of batches) {
    const res = await client.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: batch(ids),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const change of res.body.changes as Array<{ ref?: string; page?: string | { id: string } }>) {
      const page = typeof change.page === 'string' ? change.page : change.page?.id;
      if (change.ref && page) ids[change.ref] = page;
    }
  }
  const merged = await client.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
  expect(merged.status).toBe(200);
  return ids;
}

export const GETTING_STARTED = [
  'Welcome to **Acme** docs. Read the [installation guide](./install.md) first.',
  '',
  '## Install the CLI',
  '',
  '```ts',
  'const answer: number = 42;',
  'console.log("<b>" + answer + "</b>");',
  '```',
  '',
  '{% hint style="warning" %}',
  'Use Node **20** or later.',
  '{% endhint %}',
  '',
  '## Configure',
  '',
  '| Key | Value |',
  '| --- | ---: |',
  '| port | 8080 |',
  '',
  '- [x] install',
  '- [ ] configure',
  '',
  '![Logo](./logo)',
  '',
  'An <script>alert(1)</script> tag stays text.',
].join('\n');

export interface PublishedWorld {
  orgId: string;
  admin: TestUser;
  siteId: string;
  siteUrl: string;
  /** `/v1/orgs/{org}/sites/{site}` */
  api: string;
  guide: string;
  reference: string;
  pages: Record<string, string>;
  /** The site's address path under PUBLIC_URL (`/sites/<org>/<basename>`). */
  base: string;
  sections: { guide: string; api: string };
}

/** Builds and publishes the site (visibility as given). */
export async function publishedWorld(h: Harness, visibility = 'public'): Promise<PublishedWorld> {
  const org = await h.org({ title: 'Acme' });
  const c = org.admin.client;
  const guide = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Guide' })).body.id as string;
  const reference = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'API Reference' })).body.id as string;
  const referencePages = await edit(c, reference, [
    () => [
      {
        operation: 'insert_page',
        ref: 'endpoints',
        title: 'Endpoints',
        document: { markdown: 'Every endpoint answers JSON.\n\n## Authentication\n\nSend a bearer token.' },
      },
    ],
  ]);
  const pages = await edit(c, guide, [
    () => [
      {
        operation: 'insert_files',
        files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') }],
      },
      {
        operation: 'insert_page',
        ref: 'start',
        title: 'Getting started',
        emoji: '🚀',
        description: 'Everything to begin',
        document: { markdown: GETTING_STARTED },
      },
      {
        operation: 'insert_page',
        ref: 'install',
        title: 'Installation',
        // A link to a page of another space can only be written as a Document.
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                nodes: [
                  { object: 'text', leaves: [{ object: 'leaf', text: 'Install it. See also the ', marks: [] }] },
                  {
                    object: 'inline',
                    type: 'link',
                    isVoid: false,
                    data: { ref: { kind: 'page', page: referencePages.endpoints, space: reference } },
                    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'endpoints', marks: [] }] }],
                  },
                  { object: 'text', leaves: [{ object: 'leaf', text: ' of the API.', marks: [] }] },
                ],
              },
            ],
          },
        },
      },
      { operation: 'insert_page', ref: 'group', type: 'group', title: 'Advanced', document: {} },
      {
        operation: 'insert_page',
        ref: 'site',
        type: 'link',
        title: 'Website',
        target: { kind: 'url', url: 'https://example.com' },
      },
    ],
    (ids) => [
      {
        operation: 'insert_page',
        ref: 'deploy',
        into: ids.group,
        title: 'Deployment',
        document: { markdown: 'Deploy with care.' },
      },
    ],
    (ids) => [
      {
        operation: 'insert_page',
        ref: 'docker',
        into: ids.deploy,
        title: 'Docker',
        document: { markdown: 'Run the **container** image. Zeppelin orchestration keeps it alive.' },
      },
    ],
  ]);
  const api = `/v1/orgs/${org.id}/sites`;
  const site = await c.post(api, { title: 'Acme Docs', spaces: [guide], visibility });
  expect(site.status).toBe(201);
  const siteApi = `${api}/${site.body.id}`;
  const section = await c.post(`${siteApi}/sections`, { spaceId: reference, title: 'API' });
  expect(section.status).toBe(201);
  const sections = (await c.get(`${siteApi}/sections`)).body.items as Array<{ id: string; title: string }>;
  expect((await c.post(`${siteApi}/publish`)).status).toBe(200);
  const published = await c.get(siteApi);
  const siteUrl = published.body.urls.published as string;
  return {
    orgId: org.id,
    admin: org.admin,
    siteId: site.body.id,
    siteUrl,
    api: siteApi,
    guide,
    reference,
    pages: { ...pages, ...referencePages },
    base: new URL(siteUrl).pathname,
    sections: {
      guide: sections.find((s) => s.title !== 'API')?.id as string,
      api: sections.find((s) => s.title === 'API')?.id as string,
    },
  };
}
