/**
 * URLs through the official client: resolving published URLs (every kind a site hands out, on the
 * API's host, on a host of its own in the portless https form, share links, visitor auth, redirects,
 * redirectOnError), the site API token it answers with (a JWT: its claims, reads of the site's
 * content only, no writes, expiry), app URLs (getContentByUrl), embeds and the API information.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingKey } from '../../src/core/keys.js';
import { PUBLIC_URL } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';
import { type ContractServer, startContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

const URL_OPERATIONS = [
  'getApiInformation',
  'resolvePublishedContentByUrl',
  'getPublishedContentByUrl',
  'getContentByUrl',
] as const;

let server: ContractServer;
let w: PublishedWorld;
beforeAll(async () => {
  server = await startContractServer();
  w = await publishedWorld(server.harness);
}, 120_000);
afterAll(async () => server?.close());

const decodeJwt = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as Record<string, any>;

async function resolve(url: string, extra: Record<string, unknown> = {}) {
  const res = await expectConforms(
    'resolvePublishedContentByUrl',
    server.client().urls.resolvePublishedContentByUrl({ url, ...extra }),
  );
  return res.data as Record<string, any>;
}

describe('GET /v1/', () => {
  it('answers the version and build', async () => {
    const res = await expectConforms('getApiInformation', server.client().getApiInformation());
    expect(res.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isNaN(Date.parse(res.data.build))).toBe(false);
  });
});

describe('resolving published URLs', () => {
  it('resolves the site, a page, a section, and a nested page to their content', async () => {
    const root = await resolve(w.siteUrl);
    expect(root).toMatchObject({
      site: w.siteId,
      space: w.guide,
      organization: w.orgId,
      pathname: '',
      basePath: `${w.base}/`,
      siteBasePath: `${w.base}/`,
      complete: true,
    });
    expect(root.siteSection).toBe(w.sections.guide);
    expect(root.canonicalUrl).toBe(w.siteUrl);

    const docker = await resolve(`${w.siteUrl}/deployment/docker`);
    expect(docker).toMatchObject({ space: w.guide, pathname: 'deployment/docker' });
    expect(docker.canonicalUrl).toBe(`${w.siteUrl}/deployment/docker`);

    const sections = (await w.admin.client.get(`${w.api}/sections`)).body.items as Array<{
      id: string;
      urls: { published: string };
    }>;
    const apiSection = sections.find((s) => s.id === w.sections.api);
    const inSection = await resolve(`${apiSection?.urls.published}/endpoints`);
    expect(inSection).toMatchObject({ space: w.reference, siteSection: w.sections.api, pathname: 'endpoints' });
    expect(inSection.basePath).toBe(`${new URL(apiSection?.urls.published as string).pathname}/`);
    expect(inSection.siteBasePath).toBe(`${w.base}/`);

    // The deprecated GET form answers the same.
    const get = await expectConforms(
      'getPublishedContentByUrl',
      server.client().urls.getPublishedContentByUrl({ url: `${w.siteUrl}/deployment/docker` }),
    );
    expect(get.data).toMatchObject({ space: w.guide, pathname: 'deployment/docker' });
  });

  it('resolves the portless https form of the API host and of a host of its own', async () => {
    const portless = new URL(w.siteUrl);
    portless.protocol = 'https:';
    expect((await resolve(portless.href)).site).toBe(w.siteId);

    const host = `docs-${w.orgId.toLowerCase()}.example.test`;
    await server.harness.db
      .updateTable('organizations')
      .set({ custom_hostname: host })
      .where('id', '=', w.orgId)
      .execute();
    const site = await w.admin.client.get(w.api);
    const own = await resolve(`https://${host}/${site.body.basename}/deployment/docker`);
    expect(own).toMatchObject({ site: w.siteId, pathname: 'deployment/docker' });
    expect(own.siteBasePath).toBe(`/${site.body.basename}/`);
    await server.harness.db
      .updateTable('organizations')
      .set({ custom_hostname: null })
      .where('id', '=', w.orgId)
      .execute();
  });

  it('answers site redirects and link pages as redirects, and 404 for what is not published', async () => {
    const created = await w.admin.client.post(`${w.api}/redirects`, {
      source: '/old-start',
      destination: { kind: 'site-section', siteSectionId: w.sections.api },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const redirect = await resolve(`${w.siteUrl}/old-start`);
    expect(redirect).toEqual({ target: 'content', redirect: expect.stringContaining(`${w.base}/`) });
    const link = await resolve(`${w.siteUrl}/website`);
    expect(link).toEqual({ target: 'content', redirect: 'https://example.com/' });

    const missing = await resolve(`${w.siteUrl}/no/such/page`);
    expect(missing).toMatchObject({ space: w.guide, pathname: 'no/such/page' });

    await expectApiError(
      'resolvePublishedContentByUrl',
      server.client().urls.resolvePublishedContentByUrl({ url: `${PUBLIC_URL}/sites/nobody/nothing` }),
      404,
    );
    await expectApiError(
      'resolvePublishedContentByUrl',
      server.client().urls.resolvePublishedContentByUrl({ url: 'https://unknown.example.test/docs' }),
      404,
    );
    const anon = server.harness.anonymous;
    expect((await anon.post('/v1/urls/published', { url: 'not a url' })).status).toBe(400);
    expect((await anon.post('/v1/urls/published', {})).status).toBe(400);
    expect((await anon.post('/v1/urls/published', { url: `https://x.test/${'a'.repeat(2100)}` })).status).toBe(400);
    expect((await anon.get('/v1/urls/published')).status).toBe(400);
  });
});

describe('the site API token', () => {
  it('is a short-lived JWT naming the site and its spaces', async () => {
    const found = await resolve(`${w.siteUrl}/deployment/docker`);
    const claims = decodeJwt(found.apiToken);
    expect(claims).toMatchObject({
      kind: 'site',
      site: w.siteId,
      organization: w.orgId,
      space: w.guide,
      siteSpace: found.siteSpace,
      siteSection: w.sections.guide,
    });
    expect([...claims.spaces].sort()).toEqual([w.guide, w.reference].sort());
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(3600);
  });

  it('reads the site and its spaces, nothing else, and writes nothing', async () => {
    const { apiToken } = await resolve(w.siteUrl);
    const api = server.client(apiToken);
    const space = await expectConforms('getSpaceById', api.spaces.getSpaceById(w.guide));
    expect(space.data.id).toBe(w.guide);
    const revision = await api.spaces.getCurrentRevision(w.reference);
    expect(revision.status).toBe(200);
    const page = await api.spaces.getPageById(w.guide, w.pages.docker as string);
    expect(page.status).toBe(200);
    const published = await api.orgs.getPublishedContentSite(w.orgId, w.siteId);
    expect(published.status).toBe(200);

    await expectApiError('listSpacesInOrganizationById', api.orgs.listSpacesInOrganizationById(w.orgId), 404);
    await expectApiError('getOrganizationById', api.orgs.getOrganizationById(w.orgId), 403);
    const other = await server.harness.org();
    const foreign = (await other.admin.client.post(`/v1/orgs/${other.id}/spaces`, { title: 'Theirs' })).body.id;
    const inOrg = (await w.admin.client.post(`/v1/orgs/${w.orgId}/spaces`, { title: 'Not on the site' })).body.id;
    await expectApiError('getSpaceById', api.spaces.getSpaceById(foreign), 404);
    await expectApiError('getSpaceById', api.spaces.getSpaceById(inOrg), 404);
    await expectApiError('listSites', api.orgs.listSites(w.orgId), 404);
    await expectApiError('updateSpaceById', api.spaces.updateSpaceById(w.guide, { title: 'Mine' }), 403);
    await expectApiError('createChangeRequest', api.spaces.createChangeRequest(w.guide, { subject: 'x' }), 403);
    await expectApiError('getAuthenticatedUser', api.user.getAuthenticatedUser(), 403);
  });

  it('is refused once expired, or when forged, or for an unpublished site', async () => {
    const { apiToken } = await resolve(w.siteUrl);
    const claims = decodeJwt(apiToken);
    const key = await signingKey(server.harness.db);
    const expired = await new SignJWT({ ...claims, iat: undefined, exp: undefined })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('bindery-site-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(key);
    const res = await server.harness.anonymous.request('GET', `/v1/spaces/${w.guide}`, undefined, {
      authorization: `Bearer ${expired}`,
    });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not the key of this server at all'));
    const bad = await server.harness.anonymous.request('GET', `/v1/spaces/${w.guide}`, undefined, {
      authorization: `Bearer ${forged}`,
    });
    expect(bad.status).toBe(401);
  });
});

describe('share links and visitor auth', () => {
  it('a share-link site resolves with its key only', async () => {
    const shared = await publishedWorld(server.harness, 'share-link');
    const link = await shared.admin.client.post(`${shared.api}/share-links`, { name: 'Partners' });
    expect(link.status).toBe(201);
    const found = await resolve(link.body.urls.published);
    expect(found).toMatchObject({
      site: shared.siteId,
      shareKey: new URL(link.body.urls.published).searchParams.get('share'),
    });
    await expectApiError(
      'resolvePublishedContentByUrl',
      server.client().urls.resolvePublishedContentByUrl({ url: shared.siteUrl }),
      404,
    );
    await expectApiError(
      'resolvePublishedContentByUrl',
      server.client().urls.resolvePublishedContentByUrl({ url: `${shared.siteUrl}?share=wrong` }),
      404,
    );
  });

  it('a visitor-auth site resolves with a valid visitorAuthToken, redirects to login on request', async () => {
    const guarded = await publishedWorld(server.harness, 'visitor-auth');
    const auth = `${guarded.api}/publishing/auth`;
    const settings = await guarded.admin.client.patch(auth, {
      backend: 'custom',
      fallbackURL: 'https://login.example.com/start',
    });
    const key = new TextEncoder().encode(settings.body.privateKey as string);
    const visitor = await new SignJWT({ plan: 'pro' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    const found = await resolve(guarded.siteUrl, { visitor: { jwtToken: visitor } });
    expect(found.site).toBe(guarded.siteId);
    expect(found.contextId).toEqual(expect.any(String));
    expect(decodeJwt(found.apiToken).claims).toEqual({ plan: 'pro' });
    const get = await expectConforms(
      'getPublishedContentByUrl',
      server.client().urls.getPublishedContentByUrl({ url: guarded.siteUrl, visitorAuthToken: visitor }),
    );
    expect((get.data as { site: string }).site).toBe(guarded.siteId);

    const anon = server.harness.anonymous;
    expect((await anon.post('/v1/urls/published', { url: guarded.siteUrl })).status).toBe(401);
    const wrong = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another key entirely, not the site one'));
    expect((await anon.post('/v1/urls/published', { url: guarded.siteUrl, visitor: { jwtToken: wrong } })).status).toBe(
      401,
    );
    const login = await resolve(guarded.siteUrl, { redirectOnError: true });
    expect(login).toEqual({
      target: 'external',
      site: guarded.siteId,
      redirect: expect.stringMatching(/^https:\/\/login\.example\.com\/start\?location=/),
    });
  });
});

describe('getContentByUrl', () => {
  it('resolves app URLs of spaces, pages, change requests and collections, and published URLs', async () => {
    const api = server.client(w.admin.token);
    const space = await expectConforms(
      'getContentByUrl',
      api.urls.getContentByUrl({ url: `${PUBLIC_URL}/s/${w.guide}` }),
    );
    expect((space.data as any).space.id).toBe(w.guide);
    const page = await expectConforms(
      'getContentByUrl',
      api.urls.getContentByUrl({ url: `${PUBLIC_URL}/s/${w.guide}/deployment/docker` }),
    );
    expect((page.data as any).page.id).toBe(w.pages.docker);
    const cr = await w.admin.client.post(`/v1/spaces/${w.guide}/change-requests`, { subject: 'Draft' });
    const inCr = await expectConforms('getContentByUrl', api.urls.getContentByUrl({ url: cr.body.urls.app as string }));
    expect((inCr.data as any).changeRequest.id).toBe(cr.body.id);
    const collection = await w.admin.client.post(`/v1/orgs/${w.orgId}/collections`, { title: 'Shelf' });
    const col = await expectConforms(
      'getContentByUrl',
      api.urls.getContentByUrl({ url: collection.body.urls.app as string }),
    );
    expect((col.data as any).collection.id).toBe(collection.body.id);
    const published = await expectConforms(
      'getContentByUrl',
      api.urls.getContentByUrl({ url: `${w.siteUrl}/deployment/docker` }),
    );
    expect((published.data as any).page.id).toBe(w.pages.docker);
    expect((published.data as any).space.id).toBe(w.guide);

    const outsider = await server.harness.user();
    await expectApiError(
      'getContentByUrl',
      server.client(outsider.token).urls.getContentByUrl({ url: `${PUBLIC_URL}/s/${w.guide}` }),
      404,
    );
    await expectApiError('getContentByUrl', api.urls.getContentByUrl({ url: `${PUBLIC_URL}/o/${w.orgId}` }), 404);
    await expectApiError('getContentByUrl', api.urls.getContentByUrl({ url: `${PUBLIC_URL}/s/${w.guide}/nope` }), 404);
    expect((await w.admin.client.get('/v1/urls/content?url=nonsense')).status).toBe(400);
    expect((await w.admin.client.get('/v1/urls/content')).status).toBe(400);
    expect((await server.harness.anonymous.get(`/v1/urls/content?url=${PUBLIC_URL}/s/${w.guide}`)).status).toBe(401);
  });
});

describe('coverage', () => {
  it('validated every operation of the area', () => {
    expectOperationsCovered(URL_OPERATIONS);
  });
});
