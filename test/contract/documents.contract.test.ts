/**
 * Documents, page meta links, computed content and embeds through the official client, validated
 * against the official schemas: a document by id (live and in a change request, 404 for another
 * space's), meta links of a page live, at a revision and in a change request, computed content
 * refused (no sources), and link cards of pages served by a loopback HTTP server: their metadata,
 * the cache, and the fetch guard refusing private addresses unless allowed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearEmbedCache } from '../../src/api/urls/embed.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';
import { type ContractServer, startContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

const OPERATIONS = [
  'getDocumentById',
  'listSpacePageMetaLinks',
  'listRevisionPageMetaLinks',
  'listChangeRequestPageMetaLinks',
  'getEmbedByUrl',
  'getEmbedByUrlInSpace',
  'duplicateSpace',
  'duplicateSiteSpace',
] as const;

let server: ContractServer;
let w: PublishedWorld;
let pages: Server;
let origin: string;
let hits = 0;
beforeAll(async () => {
  server = await startContractServer({ fetchAllowPrivate: true });
  w = await publishedWorld(server.harness);
  pages = createServer((req, res) => {
    hits++;
    if (req.url === '/card') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        '<html><head><title>Plain &amp; simple</title><meta property="og:title" content="The &quot;Card&quot;">' +
          '<meta property="og:site_name" content="Loopback"><link rel="icon" href="/favicon.png"></head><body>x</body></html>',
      );
    } else if (req.url === '/bare') {
      res.setHeader('content-type', 'text/html');
      res.end('<title>Only a title</title>');
    } else if (req.url === '/data') {
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

describe('documents and meta links', () => {
  it('reads a document by id, live and in a change request, and nothing of other spaces', async () => {
    const api = server.client(w.admin.token);
    const page = (await w.admin.client.get(`/v1/spaces/${w.guide}/content/page/${w.pages.docker}`)).body;
    const doc = await expectConforms('getDocumentById', api.spaces.getDocumentById(w.guide, page.documentId));
    expect(JSON.stringify(doc.data)).toContain('container');

    const cr = await w.admin.client.post(`/v1/spaces/${w.guide}/change-requests`, { subject: 'Draft' });
    const edited = await w.admin.client.post(
      `/v1/spaces/${w.guide}/change-requests/${cr.body.id}/content?compat=false`,
      {
        changes: [{ operation: 'insert_page', ref: 'n', title: 'New', document: { markdown: 'Brand new words.' } }],
      },
    );
    expect(edited.status).toBe(200);
    const inCr = (await w.admin.client.get(`/v1/spaces/${w.guide}/change-requests/${cr.body.id}/content/path/new`))
      .body;
    const draft = await expectConforms('getDocumentById', api.spaces.getDocumentById(w.guide, inCr.documentId));
    expect(JSON.stringify(draft.data)).toContain('Brand new words');

    await expectApiError('getDocumentById', api.spaces.getDocumentById(w.reference, page.documentId), 404);
    await expectApiError('getDocumentById', api.spaces.getDocumentById(w.guide, 'nope'), 404);
    const outsider = await server.harness.user();
    await expectApiError(
      'getDocumentById',
      server.client(outsider.token).spaces.getDocumentById(w.guide, page.documentId),
      404,
    );
    expect((await w.admin.client.get(`/v1/spaces/${w.guide}/documents/${page.documentId}?schema=old`)).status).toBe(
      400,
    );

    const live = await expectConforms(
      'listSpacePageMetaLinks',
      api.spaces.listSpacePageMetaLinks(w.guide, w.pages.docker as string),
    );
    expect(live.data).toEqual({ alternates: [] });
    const revision = (await w.admin.client.get(`/v1/spaces/${w.guide}`)).body.revision as string;
    await expectConforms(
      'listRevisionPageMetaLinks',
      api.spaces.listRevisionPageMetaLinks(w.guide, revision, w.pages.docker as string),
    );
    await expectConforms(
      'listChangeRequestPageMetaLinks',
      api.spaces.listChangeRequestPageMetaLinks(w.guide, cr.body.id, inCr.id),
    );
    await expectApiError('listSpacePageMetaLinks', api.spaces.listSpacePageMetaLinks(w.guide, inCr.id), 404);
    await expectApiError(
      'listRevisionPageMetaLinks',
      api.spaces.listRevisionPageMetaLinks(w.guide, 'norevision', w.pages.docker as string),
      404,
    );
  });

  it('refuses computed content: no sources here', async () => {
    const computed = `/v1/spaces/${w.guide}/content/computed`;
    const body = { source: { type: 'builtin:translation', props: {}, dependencies: {} }, seed: 'x' };
    const doc = await w.admin.client.post(`${computed}/document`, body);
    expect(doc.status).toBe(400);
    expect(doc.body.error.message).toMatch(/builtin:translation/);
    expect((await w.admin.client.post(`${computed}/revision`, body)).status).toBe(400);
    expect((await w.admin.client.post(`${computed}/revision`, { seed: 'x' })).status).toBe(400);
    const outsider = await server.harness.user();
    expect((await outsider.client.post(`${computed}/document`, body)).status).toBe(404);
  });
});

describe('embeds', () => {
  it('gives the card of a page: its title, site and icon; a plain card for anything else', async () => {
    clearEmbedCache();
    const api = server.client(w.admin.token);
    const card = await expectConforms('getEmbedByUrl', api.urls.getEmbedByUrl({ url: `${origin}/card` }));
    expect(card.data).toEqual({ type: 'link', title: 'The "Card"', site: 'Loopback', icon: `${origin}/favicon.png` });
    const bare = await expectConforms(
      'getEmbedByUrlInSpace',
      api.spaces.getEmbedByUrlInSpace(w.guide, { url: `${origin}/bare` }),
    );
    expect(bare.data).toEqual({ type: 'link', title: 'Only a title', site: '127.0.0.1' });
    const data = await api.urls.getEmbedByUrl({ url: `${origin}/data` });
    expect(data.data).toEqual({ type: 'link', title: `${origin}/data`, site: '127.0.0.1' });
    const gone = await api.urls.getEmbedByUrl({ url: `${origin}/gone` });
    expect(gone.data).toMatchObject({ type: 'link', title: `${origin}/gone` });
  });

  it('keeps what it fetched', async () => {
    clearEmbedCache();
    const before = hits;
    for (let i = 0; i < 3; i++) await server.client(w.admin.token).urls.getEmbedByUrl({ url: `${origin}/card` });
    expect(hits - before).toBe(1);
  });

  it('refuses bad input, outsiders of the space, and anonymous callers', async () => {
    expect((await w.admin.client.get('/v1/urls/embed?url=ftp://example.com/x')).status).toBe(400);
    expect((await w.admin.client.get('/v1/urls/embed?url=nonsense')).status).toBe(400);
    expect((await w.admin.client.get('/v1/urls/embed')).status).toBe(400);
    expect((await server.harness.anonymous.get(`/v1/urls/embed?url=${origin}/card`)).status).toBe(401);
    const outsider = await server.harness.user();
    await expectApiError(
      'getEmbedByUrlInSpace',
      server.client(outsider.token).spaces.getEmbedByUrlInSpace(w.guide, { url: `${origin}/card` }),
      404,
    );
  });
});

describe('the fetch guard', () => {
  let guarded: Harness;
  beforeAll(async () => {
    guarded = await createHarness({ fetchAllowPrivate: false });
  });
  afterAll(async () => guarded?.close());

  it('refuses private and loopback addresses unless allowed', async () => {
    clearEmbedCache();
    const { admin } = await guarded.org();
    const before = hits;
    for (const url of [`${origin}/card`, 'http://10.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/latest']) {
      const res = await admin.client.get(`/v1/urls/embed?url=${encodeURIComponent(url)}`);
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(/private or reserved|cannot be fetched/);
    }
    expect(hits).toBe(before);
  });
});

describe('duplicateSpace', () => {
  it('copies a space with its live content, records the creation, and needs the right roles', async () => {
    const api = server.client(w.admin.token);
    const res = await expectConforms('duplicateSpace', api.spaces.duplicateSpace(w.guide), 201);
    const copy = res.data;
    expect(copy.id).not.toBe(w.guide);
    expect(copy.title).toBe('Guide (copy)');
    expect(res.headers.get('location')).toContain(`/v1/spaces/${copy.id}`);
    const pagesOf = async (id: string) =>
      (
        (await w.admin.client.get(`/v1/spaces/${id}/content/pages`)).body.pages as Array<{
          title: string;
          path: string;
        }>
      ).map((p) => [p.title, p.path]);
    expect(await pagesOf(copy.id)).toEqual(await pagesOf(w.guide));
    const files = await w.admin.client.get(`/v1/spaces/${copy.id}/content/files`);
    expect(files.body.items).toHaveLength(1);
    const created = await auditEvents(w.admin.client, w.orgId, 'space.created');
    expect(created.some((e) => JSON.stringify(e).includes(copy.id))).toBe(true);

    const reader = await server.harness.member(w.orgId, 'read');
    await expectApiError('duplicateSpace', server.client(reader.token).spaces.duplicateSpace(w.guide), 403);
    const outsider = await server.harness.user();
    await expectApiError('duplicateSpace', server.client(outsider.token).spaces.duplicateSpace(w.guide), 404);
    await expectApiError('duplicateSpace', api.spaces.duplicateSpace('nosuchspace'), 404);
  });
});

describe('duplicateSiteSpace', () => {
  it('copies a site space alone in its section into a new section, else beside it', async () => {
    const api = server.client(w.admin.token);
    const list = async () =>
      (await w.admin.client.get(`${w.api}/site-spaces`)).body.items as Array<{
        id: string;
        space: { id: string; title: string };
      }>;
    const guide = (await list()).find((s) => s.space.id === w.guide);
    const sectionsBefore = (await w.admin.client.get(`${w.api}/sections`)).body.items.length;
    const res = await expectConforms(
      'duplicateSiteSpace',
      api.orgs.duplicateSiteSpace(w.orgId, w.siteId, guide?.id as string, {}),
      201,
    );
    expect(res.data.space.title).toBe('Guide (copy)');
    expect((await w.admin.client.get(`${w.api}/sections`)).body.items.length).toBe(sectionsBefore + 1);

    // The copy is now beside nothing in its new section; a second copy of it goes in yet another one,
    // while a copy made in a section holding two goes beside them.
    const first = res.data.id;
    const extra = (await w.admin.client.post(`/v1/orgs/${w.orgId}/spaces`, { title: 'Extra' })).body.id;
    const sections = (await w.admin.client.get(`${w.api}/sections`)).body.items as Array<{
      id: string;
      siteSpaces: Array<{ id: string }>;
    }>;
    const holder = sections.find((s) => s.siteSpaces.some((ss) => ss.id === first));
    const added = await w.admin.client.post(`${w.api}/site-spaces`, { spaceId: extra, sectionId: holder?.id });
    expect(added.status).toBe(201);
    const beside = await w.admin.client.post(`${w.api}/site-spaces/${first}/duplicate`, {});
    expect(beside.status).toBe(201);
    const after = (await w.admin.client.get(`${w.api}/sections`)).body.items as Array<{
      id: string;
      siteSpaces: Array<{ id: string }>;
    }>;
    expect(after.find((s) => s.id === holder?.id)?.siteSpaces.some((ss) => ss.id === beside.body.id)).toBe(true);

    const reader = await server.harness.member(w.orgId, 'read');
    await expectApiError(
      'duplicateSiteSpace',
      server.client(reader.token).orgs.duplicateSiteSpace(w.orgId, w.siteId, first, {}),
      403,
    );
    const outsider = await server.harness.user();
    await expectApiError(
      'duplicateSiteSpace',
      server.client(outsider.token).orgs.duplicateSiteSpace(w.orgId, w.siteId, first, {}),
      404,
    );
    await expectApiError('duplicateSiteSpace', api.orgs.duplicateSiteSpace(w.orgId, w.siteId, 'nope', {}), 404);
    expect((await w.admin.client.post(`${w.api}/site-spaces/${first}/duplicate`, { draft: 'yes' })).status).toBe(400);
  });
});

describe('coverage', () => {
  it('validated every operation of the area', () => {
    expectOperationsCovered(OPERATIONS);
  });
});
