/**
 * A NUL character cannot be stored in PostgreSQL text (it used to be a 500 there), so one check
 * refuses it in every path parameter, query value and body string, at any depth, with a 400 naming
 * the field, on both databases, before any handler runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const nul = (message: string) => ({ error: { code: 400, message } });

describe('NUL characters', () => {
  it('in a path parameter', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const res = await c.get('/v1/spaces/%00');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(nul('params/spaceId must not contain a NUL character (\\u0000)'));
    const nested = await c.get(`/v1/orgs/${org.id}/sites/ab%00cd`);
    expect(nested.status).toBe(400);
    expect(nested.body.error.message).toContain('params/siteId');
    expect((await c.delete(`/v1/orgs/${org.id}/teams/%00`)).status).toBe(400);
  });

  it('in a query value, single or repeated', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const res = await c.get(`/v1/orgs/${org.id}/members?page=abc%00`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(nul('querystring/page must not contain a NUL character (\\u0000)'));
    // Before: `querystring/limit must be integer`; the NUL is named first, whatever the type.
    expect((await c.get(`/v1/orgs/${org.id}/members?limit=%00`)).body.error.message).toMatch(/^querystring\/limit/);
    const repeated = await c.get(`/v1/orgs/${org.id}/spaces?x=a&x=b%00`);
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.message).toMatch(/^querystring\/x\/1 must not contain a NUL/);
    const stream = await c.get(`/v1/orgs/${org.id}/ask/stream?query=${encodeURIComponent('what\u0000')}`);
    expect(stream.status).toBe(400);
    expect(stream.body.error.message).toMatch(/^querystring\/query/);
  });

  it('in a body string at any depth, and in a field name; nothing is written', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const res = await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Before\u0000after' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(nul('body/title must not contain a NUL character (\\u0000)'));
    expect((await c.get(`/v1/orgs/${org.id}/spaces`)).body.count).toBe(0);

    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body;
    const cr = (await c.post(`/v1/spaces/${space.id}/change-requests`, { subject: 'CR' })).body;
    const url = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    const deep = await c.post(url, {
      changes: [
        { operation: 'insert_page', title: 'Fine', document: { markdown: 'fine' } },
        { operation: 'insert_page', title: 'Bad', document: { markdown: 'one\u0000two' } },
      ],
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toBe('body/changes/1/document/markdown must not contain a NUL character (\\u0000)');
    const key = await c.post(url, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Bad key',
          document: { document: { object: 'document', data: { 'a\u0000b': 1 }, nodes: [] } },
        },
      ],
    });
    expect(key.status).toBe(400);
    expect(key.body.error.message).toBe(
      'body/changes/0/document/document/data/a\\u0000b must not contain a NUL character (\\u0000)',
    );
    const pages = await c.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages).toEqual([]);

    // The same edit without the NUL goes through.
    const ok = await c.post(url, {
      changes: [{ operation: 'insert_page', title: 'Good', document: { markdown: 'ok' } }],
    });
    expect(ok.status).toBe(200);
  });

  it('a body nested deeper than the call stack is walked without a crash', async () => {
    const org = await h.org();
    const depth = 200_000;
    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/orgs/${org.id}/spaces`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
      payload: `{"title":"x","extra":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`,
    });
    expect(res.statusCode).toBe(400);
    const { message } = res.json().error;
    expect(message).toMatch(/^body\/extra\/0\/0\/0\/.*… must not contain a NUL/);
    expect(message.length).toBeLessThan(300);
  });
});
