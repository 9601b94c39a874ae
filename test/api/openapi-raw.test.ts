/**
 * updateOpenAPISpecBySlug (the visibility) and getLatestOpenAPISpecVersionContentRaw (the entry
 * document exactly as submitted or fetched), through HTTP with a job worker processing the sources;
 * answers validated against the official schemas (the official client has neither operation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '../contract/validate.js';
import type { Harness } from '../helpers/app.js';
import { petstore, processed, serve, specsUrl, startOpenAPIHarness } from '../helpers/openapi.js';

let h: Harness;
beforeAll(async () => {
  h = await startOpenAPIHarness();
});
afterAll(async () => h?.close());

describe('OpenAPI visibility and raw content', () => {
  it('updates the visibility: admin 200, reader 403, unknown 404, bad input 400', async () => {
    const { id: orgId, admin } = await h.org();
    const url = `${specsUrl(orgId)}/pets`;
    expect((await admin.client.put(url, { source: { text: JSON.stringify(petstore()) } })).status).toBe(201);
    const got = await admin.client.get(url);
    expect(got.body.visibility).toBe('private');
    const res = await admin.client.patch(url, { visibility: 'public' });
    expect(res.status).toBe(200);
    expect(validateResponse('updateOpenAPISpecBySlug', 200, res.body)).toEqual([]);
    expect(res.body).toMatchObject({ slug: 'pets', visibility: 'public', permissions: { edit: true } });
    expect((await admin.client.get(url)).body.visibility).toBe('public');
    // The change is recorded as openapi.spec.updated (the spec's processing job may record
    // openapi.version.created after it: look among the latest, not at the very last).
    const audit = await admin.client.get(`/v1/orgs/${orgId}/audit-events?limit=10`);
    expect(audit.body.items.map((event: { action: string }) => event.action)).toContain('openapi.spec.updated');

    for (const body of [{}, { visibility: 'secret' }, { visibility: 'public', extra: 1 }]) {
      const bad = await admin.client.patch(url, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe(400);
    }
    const reader = await h.member(orgId, 'read');
    expect((await reader.client.patch(url, { visibility: 'private' })).status).toBe(403);
    expect((await reader.client.patch(`${specsUrl(orgId)}/missing`, { visibility: 'private' })).status).toBe(404);
    const outsider = await h.user();
    expect((await outsider.client.patch(url, { visibility: 'private' })).status).toBe(404);
    const missing = await admin.client.patch(`${specsUrl(orgId)}/missing`, { visibility: 'private' });
    expect(missing.status).toBe(404);
    expect(validateResponse('updateOpenAPISpecBySlug', 404, missing.body)).toEqual([]);
  });

  it('answers the raw entry document of the latest version, as given (text) or fetched (URL)', async () => {
    const { id: orgId, admin } = await h.org();
    const yaml = 'openapi: 3.0.3\ninfo:\n  title: Raw   # kept as written\n  version: 1.0.0\npaths: {}\n';
    const textUrl = `${specsUrl(orgId)}/as-yaml`;
    expect((await admin.client.put(textUrl, { source: { text: yaml } })).status).toBe(201);
    await processed(admin.client, textUrl);
    const raw = await admin.client.get(`${textUrl}/versions/latest/content/raw`);
    expect(raw.status).toBe(200);
    expect(validateResponse('getLatestOpenAPISpecVersionContentRaw', 200, raw.body)).toEqual([]);
    expect(raw.body).toEqual({ text: yaml, format: 'yaml' });

    const json = `{\n  "openapi": "3.0.3", "info": {"title": "Fetched", "version": "1"}, "paths": {}\n}`;
    const fetchedUrl = `${specsUrl(orgId)}/fetched`;
    expect((await admin.client.put(fetchedUrl, { source: { url: serve(json) } })).status).toBe(201);
    await processed(admin.client, fetchedUrl);
    const fetched = await admin.client.get(`${fetchedUrl}/versions/latest/content/raw`);
    expect(fetched.body).toEqual({ text: json, format: 'json' });

    // A reader of the organization reads it; an outsider gets 404, as does a spec with no version yet.
    const reader = await h.member(orgId, 'read');
    expect((await reader.client.get(`${textUrl}/versions/latest/content/raw`)).status).toBe(200);
    const outsider = await h.user();
    expect((await outsider.client.get(`${textUrl}/versions/latest/content/raw`)).status).toBe(404);
    const broken = `${specsUrl(orgId)}/broken`;
    expect((await admin.client.put(broken, { source: { text: 'openapi: [' } })).status).toBe(201);
    await processed(admin.client, broken);
    const none = await admin.client.get(`${broken}/versions/latest/content/raw`);
    expect(none.status).toBe(404);
    expect(validateResponse('getLatestOpenAPISpecVersionContentRaw', 404, none.body)).toEqual([]);

    // A version stored before raw sources were kept has none: 404 naming why.
    await h.db
      .updateTable('openapi_spec_versions')
      .set({ raw_text: null, raw_format: null })
      .where('spec_id', 'in', h.db.selectFrom('openapi_specs').select('id').where('organization_id', '=', orgId))
      .execute();
    const legacy = await admin.client.get(`${textUrl}/versions/latest/content/raw`);
    expect(legacy.status).toBe(404);
    expect(legacy.body.error.message).toContain('without its raw source');
  });
});
