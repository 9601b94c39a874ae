/**
 * Publishing integrations through HTTP: the first publish and republishes, the limits and required
 * fields of the body, the name, who may publish; secrets sealed at rest and never returned, the
 * script for admins of the owner only, the public icon and previews. Visibility, listing and
 * installations: integrations-installations.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIntegration } from '../../src/api/integrations/repo.js';
import { decryptSecret, secretsKey } from '../../src/core/secrets.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { body, PNG, uniqueName, url } from '../helpers/integrations.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

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
    // Hostnames are kept lower-case: the key names the organization whatever its case.
    const upper = await org.admin.client.post(url(uniqueName()), body(hostname.toUpperCase()));
    expect(upper.status).toBe(201);
    expect(upper.body.owner.id).toBe(org.id);
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
