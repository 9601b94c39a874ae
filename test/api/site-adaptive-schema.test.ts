/**
 * The adaptive (visitor) schema of a site and its template conditions; `prewarmSiteSearch` bringing
 * the search index of the site's spaces up to date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionHolds } from '../../src/sites/condition.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { edit } from '../helpers/published.js';
import { newSite, type Site } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Subscription plan' },
    beta: { type: 'boolean', description: 'In the beta programme' },
    seats: { type: 'number', description: 'Seats bought' },
    'team-name': { type: 'string', description: 'Team' },
    roles: { type: 'array', description: 'Roles', items: { type: 'string', enum: ['admin'], description: 'Role' } },
    company: {
      type: 'object',
      description: 'Company',
      properties: { size: { type: 'string', enum: ['small'], description: 'Size' } },
      additionalProperties: false,
    },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { lang: { type: 'string', enum: ['fr'], description: 'Language' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const put = (site: Site, jsonSchema: unknown) => site.admin.client.put(`${site.url}/adaptive-schema`, { jsonSchema });

describe('site adaptive schema', () => {
  it('404 before one is set; stored, read back, replaced, with an event each time', async () => {
    const site = await newSite(h, { spaces: ['A'] });
    expect((await site.admin.client.get(`${site.url}/adaptive-schema`)).status).toBe(404);
    expect((await site.admin.client.get(`${site.url}/adaptive-schema/template-conditions`)).body).toEqual({
      items: [],
    });
    const res = await put(site, schema);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ object: 'site-adaptive-schema', jsonSchema: schema, updatedAt: expect.any(String) });
    const read = await site.admin.client.get(`${site.url}/adaptive-schema`);
    expect(read.body).toEqual(res.body);
    const smaller = { type: 'object', properties: { beta: schema.properties.beta }, additionalProperties: false };
    const replaced = await put(site, smaller);
    expect(replaced.body.jsonSchema).toEqual(smaller);
    expect((await site.admin.client.get(`${site.url}/adaptive-schema`)).body.jsonSchema).toEqual(smaller);
    expect(await auditEvents(site.admin.client, site.orgId, 'site.adaptive_schema.updated')).toHaveLength(2);
  });

  it('derives template conditions from the stored schema, each one a condition that works', async () => {
    const site = await newSite(h, { spaces: ['A'] });
    await put(site, schema);
    const res = await site.admin.client.get(`${site.url}/adaptive-schema/template-conditions`);
    expect(res.status).toBe(200);
    const conditions = res.body.items.map((i: { condition: string }) => i.condition);
    expect(conditions).toEqual([
      'visitor.claims.plan === "free"',
      'visitor.claims.plan === "pro"',
      'visitor.claims.beta === true',
      'visitor.claims.beta !== true',
      'visitor.claims.seats > 0',
      'visitor.claims["team-name"] !== undefined',
      'visitor.claims.roles?.includes("admin") === true',
      'visitor.claims.company.size === "small"',
      'visitor.claims.unsigned.lang === "fr"',
    ]);
    expect(res.body.items[1].description).toBe('plan is "pro" (Subscription plan)');
    const visitor = {
      claims: {
        plan: 'pro',
        beta: true,
        seats: 3,
        'team-name': 'x',
        roles: ['admin'],
        company: { size: 'small' },
        unsigned: { lang: 'fr' },
      },
    };
    const holding = conditions.filter((c: string) => conditionHolds(c, visitor));
    expect(holding).toEqual(
      conditions.filter((c: string) => c !== 'visitor.claims.plan === "free"' && !c.includes('!== true')),
    );
    // A visitor without claims qualifies for none but the negation.
    expect(conditions.filter((c: string) => conditionHolds(c, { claims: {} }))).toEqual([
      'visitor.claims.beta !== true',
    ]);
  });

  const claims = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, { type: 'boolean', description: 'x' }]));
  const nested = (depth: number): unknown =>
    depth === 0
      ? { type: 'boolean', description: 'leaf' }
      : { type: 'object', description: 'o', properties: { n: nested(depth - 1) }, additionalProperties: false };
  const root = (properties: unknown) => ({ type: 'object', properties, additionalProperties: false });

  it.each([
    ['200 claims', root(claims(200)), 200],
    ['201 claims', root(claims(201)), 400],
    ['objects nested 4 deep (5 levels of claims)', root({ a: nested(4) }), 200],
    ['objects nested 5 deep', root({ a: nested(5) }), 400],
    [
      '100 enum values',
      root({ a: { type: 'string', description: 'x', enum: Array.from({ length: 100 }, (_, i) => `v${i}`) } }),
      200,
    ],
    [
      '101 enum values',
      root({ a: { type: 'string', description: 'x', enum: Array.from({ length: 101 }, (_, i) => `v${i}`) } }),
      400,
    ],
    ['no properties', { type: 'object', additionalProperties: false }, 400],
    ['additionalProperties true', { ...root({}), additionalProperties: true }, 400],
    ['type array', { ...root({}), type: 'array' }, 400],
    ['another $schema', { ...root({}), $schema: 'https://json-schema.org/draft/2020-12/schema' }, 400],
    ['an unknown keyword', { ...root({}), required: ['a'] }, 400],
    ['a claim without description', root({ a: { type: 'boolean' } }), 400],
    ['a claim of type null', root({ a: { type: 'null', description: 'x' } }), 400],
    ['an enum of numbers', root({ a: { type: 'string', description: 'x', enum: [1] } }), 400],
    ['an array of objects', root({ a: { type: 'array', description: 'x', items: nested(1) } }), 400],
    [
      'an open object claim',
      root({ a: { type: 'object', description: 'x', properties: {}, additionalProperties: true } }),
      400,
    ],
    [
      'unsigned with another description',
      root({ unsigned: { type: 'object', description: 'x', properties: {}, additionalProperties: false } }),
      400,
    ],
    ['an empty schema', root({}), 200],
  ])('%s -> %i', async (_name, jsonSchema, status) => {
    const site = await newSite(h, { spaces: ['A'] });
    const res = await put(site, jsonSchema);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 400) {
      expect(res.body.error.message).toMatch(/body\/jsonSchema/);
      expect((await site.admin.client.get(`${site.url}/adaptive-schema`)).status).toBe(404);
    }
  });

  it('bad bodies are 400', async () => {
    const site = await newSite(h, { spaces: ['A'] });
    for (const body of [{}, { jsonSchema: 'x' }, { jsonSchema: null }, { jsonSchema: root({}), extra: 1 }]) {
      expect((await site.admin.client.put(`${site.url}/adaptive-schema`, body)).status).toBe(400);
    }
  });

  it('readers read it; only admins change it; outsiders and other organizations get 404', async () => {
    const site = await newSite(h, { spaces: ['A'] });
    const other = await newSite(h, { spaces: ['B'] });
    await put(site, schema);
    const outsider = await h.user();
    const reader = await h.member(site.orgId, 'read');
    const creator = await h.member(site.orgId, 'create');
    for (const client of [outsider.client, other.admin.client]) {
      expect((await client.get(`${site.url}/adaptive-schema`)).status).toBe(404);
      expect((await client.get(`${site.url}/adaptive-schema/template-conditions`)).status).toBe(404);
      expect((await client.put(`${site.url}/adaptive-schema`, { jsonSchema: root({}) })).status).toBe(404);
    }
    expect((await reader.client.get(`${site.url}/adaptive-schema`)).status).toBe(200);
    expect((await reader.client.get(`${site.url}/adaptive-schema/template-conditions`)).body.items).toHaveLength(9);
    for (const member of [reader, creator]) {
      expect((await member.client.put(`${site.url}/adaptive-schema`, { jsonSchema: root({}) })).status).toBe(403);
    }
    expect((await site.admin.client.get(`${site.url}/adaptive-schema`)).body.jsonSchema).toEqual(schema);
  });
});

describe('prewarmSiteSearch', () => {
  it('brings a stale search index of the site spaces up to date (204), and the search finds the content', async () => {
    const site = await newSite(h, { spaces: ['Guide'], published: true });
    const spaceId = (await site.admin.client.get(`${site.url}/site-spaces`)).body.items[0].space.id as string;
    await edit(site.admin.client, spaceId, [
      () => [{ operation: 'insert_page', ref: 'p', title: 'Quokka facts', document: { markdown: 'Quokkas smile.' } }],
    ]);
    // As if the index had been lost (a database restored without it): no state, no passages.
    await h.db.deleteFrom('search_passages').where('space_id', '=', spaceId).execute();
    await h.db.deleteFrom('search_index_state').where('space_id', '=', spaceId).execute();
    const res = await site.admin.client.post(`${site.url}/search/prewarm`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const live = await h.db
      .selectFrom('spaces')
      .select('revision_id')
      .where('id', '=', spaceId)
      .executeTakeFirstOrThrow();
    const state = await h.db
      .selectFrom('search_index_state')
      .selectAll()
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    expect(state?.revision_id).toBe(live.revision_id);
    const passages = await h.db
      .selectFrom('search_passages')
      .select('page_title')
      .where('space_id', '=', spaceId)
      .execute();
    expect(passages.map((p) => p.page_title)).toContain('Quokka facts');
  });

  it('404 to outsiders and another organization; readers may (it changes nothing of theirs)', async () => {
    const site = await newSite(h, { spaces: ['Guide'] });
    const other = await newSite(h, { spaces: ['B'] });
    const outsider = await h.user();
    const reader = await h.member(site.orgId, 'read');
    expect((await outsider.client.post(`${site.url}/search/prewarm`)).status).toBe(404);
    expect((await other.admin.client.post(`${site.url}/search/prewarm`)).status).toBe(404);
    expect((await reader.client.post(`${site.url}/search/prewarm`)).status).toBe(204);
    expect((await site.admin.client.post(`/v1/orgs/${site.orgId}/sites/nope/search/prewarm`)).status).toBe(404);
  });
});
