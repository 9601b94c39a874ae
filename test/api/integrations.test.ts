import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIntegration } from '../../src/api/integrations/repo.js';
import { newId } from '../../src/core/ids.js';
import { decryptSecret, secretsKey } from '../../src/core/secrets.js';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** A name no other test (or test file sharing the PostgreSQL database) uses. */
const uniqueName = (prefix = 'int') => `${prefix}-${newId(10).toLowerCase()}`;
const url = (name: string) => `/v1/integrations/${name}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');

function body(organization: string, extra: Record<string, unknown> = {}) {
  return {
    title: 'My integration',
    description: 'Does things',
    scopes: ['space:content:read'],
    script: 'export default {}',
    organization,
    ...extra,
  };
}

describe('publishing', () => {
  it('first publish: 201 with Location and version 1; republish: 200 and version 2', async () => {
    const org = await h.org();
    const name = uniqueName();
    const res = await org.admin.client.post(
      url(name),
      body(org.id, {
        summary: '# Hello',
        icon: PNG,
        previewImages: [PNG, PNG],
        visibility: 'public',
        target: 'space',
        categories: ['analytics', 'gitsync'],
        blocks: [
          { id: 'b', title: 'Block', urlUnfurl: ['https://example.com/x'], markdown: { codeblock: 'b', body: 'c' } },
        ],
        contentSources: [{ id: 's', title: 'Source', configuration: { componentId: 'cfg' } }],
        externalLinks: [{ url: 'https://example.com', label: 'Site' }],
        configurations: {
          account: { properties: { token: { type: 'string', title: 'Token' } }, required: ['token'] },
          space: { componentId: 'spaceConfig' },
        },
        contentSecurityPolicy: { 'script-src': "'self'" },
        runtime: 'v2',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${url(name)}`);
    expect(res.body).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      title: 'My integration',
      summary: '# Hello',
      target: 'space',
      visibility: 'public',
      verified: false,
      categories: ['analytics', 'gitsync'],
      owner: { id: org.id, object: 'organization' },
      permissions: { admin: true, install: true },
      contentSecurityPolicy: { 'script-src': "'self'" },
      configurations: { space: { componentId: 'spaceConfig' } },
    });
    expect(res.body.previewImages).toHaveLength(2);
    expect(res.body.urls.icon).toBe(`http://bindery.test${url(name)}/icon?v=1`);
    expect(res.body.script).toBeUndefined();
    expect(res.body.secrets).toBeUndefined();

    const again = await org.admin.client.post(
      url(name),
      body(org.id, { title: 'Renamed', contentSecurityPolicy: "default-src 'self'" }),
    );
    expect(again.status).toBe(200);
    expect(again.headers.location).toBeUndefined();
    expect(again.body).toMatchObject({
      version: 2,
      title: 'Renamed',
      target: 'all',
      contentSecurityPolicy: "default-src 'self'",
    });
    expect(again.body.previewImages).toEqual([]);
    expect(again.body.urls.icon).toBeUndefined();
  });

  it('publishes under the organization hostname too', async () => {
    const org = await h.org();
    const hostname = `h${newId(8).toLowerCase()}`;
    expect((await org.admin.client.patch(`/v1/orgs/${org.id}`, { hostname })).status).toBe(200);
    const res = await org.admin.client.post(url(uniqueName()), body(hostname));
    expect(res.status).toBe(201);
    expect(res.body.owner.id).toBe(org.id);
  });

  it.each([
    ['title', 'a', 400],
    ['title', 'ab', 201],
    ['title', 'a'.repeat(30), 201],
    ['title', 'a'.repeat(31), 400],
    ['description', 'd'.repeat(100), 201],
    ['description', 'd'.repeat(101), 400],
    ['summary', 's'.repeat(2048), 201],
    ['summary', 's'.repeat(2049), 400],
    ['previewImages', [PNG, PNG, PNG], 201],
    ['previewImages', [PNG, PNG, PNG, PNG], 400],
    ['previewImages', ['not base64!'], 400],
    ['externalLinks', Array.from({ length: 5 }, (_, i) => ({ url: `https://e.test/${i}`, label: 'l' })), 201],
    ['externalLinks', Array.from({ length: 6 }, (_, i) => ({ url: `https://e.test/${i}`, label: 'l' })), 400],
    ['scopes', ['not:a:scope'], 400],
    ['categories', ['nope'], 400],
    ['target', 'everywhere', 400],
    ['visibility', 'secret', 400],
    ['icon', 'x', 400],
    ['contentSecurityPolicy', { 'not-a-directive': 'x' }, 400],
    ['unknownField', 1, 400],
  ])('%s = %j -> %i', async (field, value, status) => {
    const org = await h.org();
    const res = await org.admin.client.post(url(uniqueName()), body(org.id, { [field]: value }));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain(field);
  });

  it.each(['title', 'description', 'scopes', 'script', 'organization'])('%s is required', async (field) => {
    const org = await h.org();
    const payload: Record<string, unknown> = body(org.id);
    delete payload[field];
    const res = await org.admin.client.post(url(uniqueName()), payload);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });

  it('icon over 1 MiB decoded is refused', async () => {
    const org = await h.org();
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    const ok = Buffer.alloc(1024 * 1024).toString('base64');
    expect((await org.admin.client.post(url(uniqueName()), body(org.id, { icon: big }))).status).toBe(400);
    expect((await org.admin.client.post(url(uniqueName()), body(org.id, { icon: ok }))).status).toBe(201);
  });

  it('name: at most 100 characters of [a-zA-Z0-9-_.]', async () => {
    const org = await h.org();
    const base = uniqueName('n');
    const n100 = base + 'x'.repeat(100 - base.length);
    expect((await org.admin.client.post(url(n100), body(org.id))).status).toBe(201);
    expect((await org.admin.client.get(url(n100))).status).toBe(200);
    expect((await org.admin.client.post(url(`${n100}y`), body(org.id))).status).toBe(400);
    expect((await org.admin.client.get(url(`${n100}y`))).status).toBe(400);
    expect((await org.admin.client.post(url('bad%20name'), body(org.id))).status).toBe(400);
    expect((await org.admin.client.get(url('bad!name'))).status).toBe(400);
    expect((await org.admin.client.post(url('Ok_name.v-2'.concat(newId(5))), body(org.id))).status).toBe(201);
  });

  it('only admins of the named organization publish; only owner admins republish', async () => {
    const org = await h.org();
    const editor = await h.member(org.id, 'edit');
    const name = uniqueName();
    expect((await editor.client.post(url(name), body(org.id))).status).toBe(403);
    const outsider = await h.org();
    expect((await outsider.admin.client.post(url(name), body(org.id))).status).toBe(404);
    expect((await org.admin.client.post(url(name), body('no-such-org'))).status).toBe(404);
    expect((await org.admin.client.post(url(name), body(org.id))).status).toBe(201);
    // Public: others see it, so 403.
    expect((await editor.client.post(url(name), body(org.id))).status).toBe(403);
    expect((await outsider.admin.client.post(url(name), body(outsider.id))).status).toBe(403);
    const secondAdmin = await h.member(org.id, 'admin');
    const res = await secondAdmin.client.post(url(name), body(org.id));
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    // An admin of the owner who names another of their organizations: 400.
    const other = await org.admin.client.post('/v1/orgs', { title: 'Other org' });
    const moved = await org.admin.client.post(url(name), body(other.body.id));
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toContain('organization');
    // Private: outsiders do not see it, so 404.
    const hidden = uniqueName();
    await org.admin.client.post(url(hidden), body(org.id, { visibility: 'private' }));
    expect((await outsider.admin.client.post(url(hidden), body(outsider.id))).status).toBe(404);
    expect((await editor.client.post(url(hidden), body(org.id))).status).toBe(403);
  });

  it('needs the integration:publish scope', async () => {
    const org = await h.org();
    const limited = await h.member(org.id, 'admin', { scopes: ['integration:read'] });
    expect((await limited.client.post(url(uniqueName()), body(org.id))).status).toBe(403);
    const allowed = await h.member(org.id, 'admin', { scopes: ['integration:publish'] });
    expect((await allowed.client.post(url(uniqueName()), body(org.id))).status).toBe(201);
  });
});

describe('secrets and script', () => {
  it('secrets are sealed at rest, never returned, and kept when a republish omits them', async () => {
    const org = await h.org();
    const name = uniqueName();
    const res = await org.admin.client.post(url(name), body(org.id, { secrets: { API_KEY: 'plain-secret-value' } }));
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain('plain-secret-value');
    const row = await findIntegration(h.db, name);
    expect(row?.secrets).toBeTruthy();
    expect(row?.secrets).not.toContain('plain-secret-value');
    expect(row?.secrets).toMatch(/^v1\./);
    const key = await secretsKey(h.db, h.app.config.secretsKey);
    expect(JSON.parse(decryptSecret(key, row?.secrets as string, name))).toEqual({ API_KEY: 'plain-secret-value' });
    // Bound to the name: the same ciphertext does not open for another integration.
    expect(() => decryptSecret(key, row?.secrets as string, `${name}x`)).toThrow();

    await org.admin.client.post(url(name), body(org.id));
    expect((await findIntegration(h.db, name))?.secrets).toBe(row?.secrets);
    await org.admin.client.post(url(name), body(org.id, { secrets: { OTHER: 'v2' } }));
    const replaced = await findIntegration(h.db, name);
    expect(JSON.parse(decryptSecret(key, replaced?.secrets as string, name))).toEqual({ OTHER: 'v2' });
    const got = await org.admin.client.get(url(name));
    expect(JSON.stringify(got.body)).not.toContain('v2"');
    expect(got.body.secrets).toBeUndefined();
  });

  it('the script is served to admins of the owner only', async () => {
    const org = await h.org();
    const name = uniqueName();
    await org.admin.client.post(url(name), body(org.id, { script: 'console.log("hi")' }));
    const script = await org.admin.client.get(`${url(name)}/script`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('application/javascript');
    expect(script.body).toBe('console.log("hi")');
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.get(`${url(name)}/script`)).status).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.get(`${url(name)}/script`)).status).toBe(403);
    expect((await outsider.client.get(url(name))).body.script).toBeUndefined();
  });

  it('icon and previews are public, with their content type', async () => {
    const org = await h.org();
    const name = uniqueName();
    const pub = await org.admin.client.post(url(name), body(org.id, { icon: PNG, previewImages: [PNG] }));
    const icon = await h.app.inject({ method: 'GET', url: new URL(pub.body.urls.icon).pathname });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.rawPayload.equals(Buffer.from(PNG, 'base64'))).toBe(true);
    const preview = await h.app.inject({ method: 'GET', url: new URL(pub.body.previewImages[0]).pathname });
    expect(preview.statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: `${url(name)}/previews/1` })).statusCode).toBe(404);
    const none = uniqueName();
    await org.admin.client.post(url(none), body(org.id));
    expect((await h.app.inject({ method: 'GET', url: `${url(none)}/icon` })).statusCode).toBe(404);
  });
});

describe('visibility and permissions', () => {
  it('private: 404 and absent from lists for other organizations; unlisted: gettable, never listed', async () => {
    const org = await h.org();
    const member = await h.member(org.id, 'read');
    const stranger = await h.org();
    const priv = uniqueName('priv');
    const unl = uniqueName('unl');
    const pub = uniqueName('pub');
    await org.admin.client.post(url(priv), body(org.id, { visibility: 'private' }));
    await org.admin.client.post(url(unl), body(org.id, { visibility: 'unlisted' }));
    await org.admin.client.post(url(pub), body(org.id));

    expect((await stranger.admin.client.get(url(priv))).status).toBe(404);
    expect((await member.client.get(url(priv))).status).toBe(200);
    expect((await stranger.admin.client.get(url(unl))).status).toBe(200);
    expect((await stranger.admin.client.get(url(pub))).status).toBe(200);

    const names = async (client: typeof member.client) =>
      (await client.get(`/v1/integrations?owner=${org.id}`)).body.items.map((i: { name: string }) => i.name);
    expect(await names(stranger.admin.client)).toEqual([pub]);
    expect((await names(member.client)).sort()).toEqual([priv, pub].sort());
    expect((await h.anonymous.get(url(pub))).status).toBe(401);
  });

  it('permissions: admin for admins of the owner, install for admins of any organization', async () => {
    const org = await h.org();
    const name = uniqueName();
    await org.admin.client.post(url(name), body(org.id));
    expect((await org.admin.client.get(url(name))).body.permissions).toEqual({ admin: true, install: true });
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.get(url(name))).body.permissions).toEqual({ admin: false, install: false });
    const other = await h.org();
    expect((await other.admin.client.get(url(name))).body.permissions).toEqual({ admin: false, install: true });
    const loner = await h.user();
    expect((await loner.client.get(url(name))).body.permissions).toEqual({ admin: false, install: false });
    expect((await org.admin.client.get(url(uniqueName()))).status).toBe(404);
  });
});

describe('listing', () => {
  it('every filter and keyset paging', async () => {
    const org = await h.org();
    const p = `flt${newId(6).toLowerCase()}`;
    const c = org.admin.client;
    await c.post(url(`${p}-a`), body(org.id, { title: 'Alpha Analytics', categories: ['analytics'], target: 'space' }));
    await c.post(
      url(`${p}-b`),
      body(org.id, {
        title: 'Beta Blocks',
        categories: ['content', 'other'],
        blocks: [{ id: 'x', title: 'Embed', urlUnfurl: ['https://www.Example-Video.com/watch'] }],
        scopes: ['site:views:read'],
      }),
    );
    await c.post(
      url(`${p}-c`),
      body(org.id, {
        title: 'Gamma Sources',
        categories: ['gitsync'],
        contentSources: [{ id: 's', title: 'Src', configuration: { componentId: 'c' } }],
      }),
    );
    await c.post(url(`${p}-d`), body(org.id, { title: 'Delta', target: 'organization' }));
    const list = async (q: string) => {
      const res = await c.get(`/v1/integrations?owner=${org.id}&${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.items.map((i: { name: string }) => i.name.slice(p.length + 1));
    };
    expect(await list('')).toEqual(['a', 'b', 'c', 'd']);
    expect(await list('search=BETA')).toEqual(['b']);
    expect(await list(`search=${p}-C`)).toEqual(['c']);
    expect(await list('category=analytics')).toEqual(['a']);
    expect(await list('category=other')).toEqual(['b']);
    expect(await list('category=gitsync')).toEqual(['c']);
    expect(await list('blockDomain=example-video.com')).toEqual(['b']);
    expect(await list('blockDomain=other.com')).toEqual([]);
    expect(await list('blocks=true')).toEqual(['b']);
    expect(await list('blocks=false')).toEqual(['a', 'c', 'd']);
    expect(await list('contentSources=true')).toEqual(['c']);
    expect(await list('contentSources=false')).toEqual(['a', 'b', 'd']);
    expect(await list('scope=site:views:read')).toEqual(['b']);
    expect(await list('target=space')).toEqual(['a', 'b', 'c']);
    expect(await list('target=organization')).toEqual(['b', 'c', 'd']);
    expect(await list('blocks=false&contentSources=false&search=a')).toEqual(['a', 'd']);
    expect((await c.get('/v1/integrations?owner=nobody')).body).toEqual({ items: [], count: 0 });

    const first = await c.get(`/v1/integrations?owner=${org.id}&limit=3`);
    expect(first.body.count).toBe(4);
    expect(first.body.items).toHaveLength(3);
    const rest = await c.get(`/v1/integrations?owner=${org.id}&limit=3&page=${first.body.next.page}`);
    expect(rest.body.items.map((i: { name: string }) => i.name)).toEqual([`${p}-d`]);
    expect(rest.body.next).toBeUndefined();
    expect((await c.get(`/v1/integrations?owner=${org.id}&limit=0`)).body).toEqual({ items: [], count: 4 });
  });

  it.each([
    ['blockDomain', 'a'.repeat(100), 200],
    ['blockDomain', 'a'.repeat(101), 400],
    ['blockDomain', 'bad/domain', 400],
    ['category', 'nope', 400],
    ['blocks', 'maybe', 400],
    ['limit', '1001', 400],
    ['page', 'garbage', 400],
  ])('query %s=%s -> %i', async (field, value, status) => {
    const org = await h.org();
    expect((await org.admin.client.get(`/v1/integrations?${field}=${value}`)).status).toBe(status);
  });
});

describe('installations', () => {
  async function setup(target?: string) {
    const org = await h.org();
    const name = uniqueName('inst');
    await org.admin.client.post(
      url(name),
      body(org.id, {
        ...(target ? { target } : {}),
        title: 'Installable',
        blocks: [{ id: 'blk', title: 'Block one' }],
      }),
    );
    const space = (await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body;
    return { org, name, space };
  }

  it('installs on an organization and a space, then lists it there', async () => {
    const { org, name, space } = await setup();
    const inst = await org.admin.client.post(`${url(name)}/installations`, { organization: org.id });
    expect(inst.status).toBe(201);
    expect(inst.headers.location).toBe(inst.body.urls.location);
    expect(inst.body).toMatchObject({ status: 'active', target: { organization: org.id }, spaces: 0 });
    expect((await org.admin.client.post(`${url(name)}/installations`, { organization: org.id })).status).toBe(409);

    const empty = await org.admin.client.get(`/v1/spaces/${space.id}/integrations`);
    expect(empty.body).toEqual({ items: [], count: 0 });
    const onSpace = await org.admin.client.post(`${url(name)}/installations/${inst.body.id}/spaces`, {
      space: space.id,
    });
    expect(onSpace.status).toBe(201);
    expect(onSpace.body).toMatchObject({ integration: name, installation: inst.body.id, space: space.id });
    const extended = await org.admin.client.post(`${url(name)}/installations/${inst.body.id}/spaces?extended=true`, {
      space: space.id,
    });
    expect(extended.status).toBe(201);
    expect(extended.body.space).toMatchObject({ object: 'space', id: space.id });

    const reader = await h.member(org.id, 'read');
    const listed = await reader.client.get(`/v1/spaces/${space.id}/integrations`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { name: string }) => i.name)).toEqual([name]);
    expect((await reader.client.get(`/v1/spaces/${space.id}/integrations?search=INSTALLABLE`)).body.count).toBe(1);
    expect((await reader.client.get(`/v1/spaces/${space.id}/integrations?search=zzz`)).body.count).toBe(0);
    const blocks = await reader.client.get(`/v1/spaces/${space.id}/integration-blocks`);
    expect(blocks.status).toBe(200);
    expect(blocks.body).toEqual([{ name, blocks: [{ id: 'blk', title: 'Block one' }] }]);
    const outsider = await h.user();
    expect((await outsider.client.get(`/v1/spaces/${space.id}/integrations`)).status).toBe(404);
    expect((await outsider.client.get(`/v1/spaces/${space.id}/integration-blocks`)).status).toBe(404);
  });

  it('org install: admins of that organization only', async () => {
    const { org, name } = await setup();
    const editor = await h.member(org.id, 'edit');
    expect((await editor.client.post(`${url(name)}/installations`, { organization: org.id })).status).toBe(403);
    const other = await h.org();
    expect((await other.admin.client.post(`${url(name)}/installations`, { organization: org.id })).status).toBe(404);
    // Installing a public integration of another organization on your own works.
    expect((await other.admin.client.post(`${url(name)}/installations`, { organization: other.id })).status).toBe(201);
    expect((await org.admin.client.post(`${url(uniqueName())}/installations`, { organization: org.id })).status).toBe(
      404,
    );
    const priv = uniqueName();
    await org.admin.client.post(url(priv), body(org.id, { visibility: 'private' }));
    expect((await other.admin.client.post(`${url(priv)}/installations`, { organization: other.id })).status).toBe(404);
  });

  it('space install: outsider 404, reader 403, foreign installation 404, other org space 400', async () => {
    const { org, name, space } = await setup();
    const inst = (await org.admin.client.post(`${url(name)}/installations`, { organization: org.id })).body;
    const spacesUrl = `${url(name)}/installations/${inst.id}/spaces`;
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.post(spacesUrl, { space: space.id })).status).toBe(403);
    const outsider = await h.org();
    expect((await outsider.admin.client.post(spacesUrl, { space: space.id })).status).toBe(404);
    expect((await org.admin.client.post(spacesUrl, { space: 'nope' })).status).toBe(404);
    expect((await org.admin.client.post(`${url(name)}/installations/nope/spaces`, { space: space.id })).status).toBe(
      404,
    );
    const otherSpace = (await org.admin.client.post('/v1/orgs', { title: 'Second' })).body;
    const foreignSpace = (await org.admin.client.post(`/v1/orgs/${otherSpace.id}/spaces`, { title: 'F' })).body;
    expect((await org.admin.client.post(spacesUrl, { space: foreignSpace.id })).status).toBe(400);
  });

  it('target rules: only all/space integrations go on spaces', async () => {
    for (const [target, status] of [
      ['space', 201],
      ['all', 201],
      ['organization', 400],
      ['site', 400],
    ] as const) {
      const { org, name, space } = await setup(target);
      const inst = await org.admin.client.post(`${url(name)}/installations`, { organization: org.id });
      expect(inst.status).toBe(201);
      const res = await org.admin.client.post(`${url(name)}/installations/${inst.body.id}/spaces`, { space: space.id });
      expect(res.status, target).toBe(status);
      if (status === 400) expect(res.body.error.message).toContain('target');
    }
  });
});
