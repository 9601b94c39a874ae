/**
 * Integrations through HTTP once published: who sees them (private, unlisted, public) and with what
 * permissions; the list with every filter and keyset paging; installations on an organization and
 * on its spaces, who may install, and the target rules. Publishing: integrations.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { body, uniqueName, url } from '../helpers/integrations.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

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
