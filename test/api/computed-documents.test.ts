/**
 * getComputedDocument and getComputedRevision with the official `builtin:openapi` source: the parts
 * of a processed OpenAPI specification (an operation, a tag's operations, the information, the
 * models) as a document, and as pages by tag or by operation; other source types answer 400 saying
 * what is supported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '../contract/validate.js';
import type { Harness } from '../helpers/app.js';
import { processed, specsUrl, startOpenAPIHarness } from '../helpers/openapi.js';

let h: Harness;
beforeAll(async () => {
  h = await startOpenAPIHarness();
});
afterAll(async () => h?.close());

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Pet Store', version: '2.1.0', description: 'Pets, *adopted*.' },
  servers: [{ url: 'https://pets.example.com/v2' }],
  tags: [{ name: 'pets', description: 'Everything about pets.' }],
  paths: {
    '/pets/{petId}': {
      parameters: [{ $ref: '#/components/parameters/petId' }],
      get: {
        tags: ['pets'],
        summary: 'Get a pet',
        description: 'Finds one pet | by id.',
        parameters: [{ name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } }],
        responses: {
          200: {
            description: 'The pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          404: { description: 'No such pet' },
        },
      },
      delete: { tags: ['pets'], deprecated: true, responses: { 204: { description: 'Gone' } } },
    },
    '/pets': {
      post: {
        tags: ['pets'],
        summary: 'Add a pet',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { 201: { description: 'Added' } },
      },
    },
  },
  components: {
    parameters: {
      petId: {
        name: 'petId',
        in: 'path',
        required: true,
        description: 'The pet',
        schema: { type: 'integer', format: 'int64' },
      },
    },
    schemas: {
      Pet: {
        type: 'object',
        description: 'A pet.',
        required: ['name'],
        properties: {
          name: { type: 'string', description: 'Its name' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

async function world() {
  const ctx = await h.space();
  const url = `${specsUrl(ctx.orgId)}/pets`;
  expect((await ctx.admin.client.put(url, { source: { text: JSON.stringify(SPEC) } })).status).toBe(201);
  await processed(ctx.admin.client, url);
  const compute = (props: object, client = ctx.admin.client, spec = 'pets') =>
    client.post(`${ctx.base}/content/computed/document`, {
      source: { type: 'builtin:openapi', props, dependencies: { spec: { ref: { kind: 'openapi', spec } } } },
      seed: 'x',
    });
  return { ...ctx, compute };
}

/** The text of a document's blocks, one line each (tables: the header and each row, cells joined by " | "). */
function lines(document: any): string[] {
  const inline = (nodes: any[]): string =>
    nodes
      .map((n) => (n.object === 'text' ? n.leaves.map((l: any) => l.text).join('') : inline(n.nodes ?? [])))
      .join('');
  const out: string[] = [];
  const walk = (block: any) => {
    if (block.type === 'table') {
      const { columns } = block.data.view;
      out.push(columns.map((c: string) => block.data.definition[c].title).join(' | '));
      const fragment = (id: string) => block.fragments.find((f: any) => f.fragment === id)?.nodes ?? [];
      const records = Object.values(block.data.records) as any[];
      records.sort((a, b) => a.orderIndex.localeCompare(b.orderIndex));
      for (const record of records) {
        out.push(
          columns
            .map((c: string) =>
              fragment(record.values[c])
                .map((b: any) => inline(b.nodes))
                .join(''),
            )
            .join(' | '),
        );
      }
    } else if (block.type === 'code') {
      out.push(block.nodes.map((line: any) => inline(line.nodes)).join('\n'));
    } else if (block.nodes?.length > 0 && block.nodes.every((n: any) => n.object === 'block')) {
      block.nodes.forEach(walk);
    } else out.push(inline(block.nodes ?? []));
  };
  document.nodes.forEach(walk);
  return out.map((line) => line.trim());
}

describe('getComputedDocument, builtin:openapi', () => {
  it('computes an operation: title, description, method and path, parameters (the path item’s too), responses', async () => {
    const { compute } = await world();
    const res = await compute({ doc: 'operation', page: '/pets/{petId}', method: 'get' });
    expect(res.status).toBe(200);
    expect(validateResponse('getComputedDocument', 200, res.body)).toEqual([]);
    const text = lines(res.body);
    expect(text.slice(0, 3)).toEqual(['Get a pet', 'Finds one pet | by id.', 'GET /pets/{petId}']);
    expect(res.body.nodes[0].type).toBe('heading-1');
    expect(text).toContain('Parameters');
    expect(text).toContain('petId | path | integer (int64) | yes | The pet');
    expect(text).toContain('fields | query | array of string | no |');
    expect(text).toContain('200 | The pet');
    expect(text).toContain('404 | No such pet');
    const deleted = lines((await compute({ doc: 'operation', page: '/pets/{petId}', method: 'delete' })).body);
    expect(deleted.slice(0, 3)).toEqual(['DELETE /pets/{petId}', 'Deprecated.', 'DELETE /pets/{petId}']);
  });

  it('computes a tag (and `operations`) with its operations, the information, the models', async () => {
    const { compute } = await world();
    for (const doc of ['tag', 'operations']) {
      const text = lines((await compute({ doc, page: 'pets' })).body);
      expect(text.slice(0, 2)).toEqual(['pets', 'Everything about pets.']);
      // In the order of the paths; the untitled DELETE is named by its method and path (heading and code).
      const titles = ['Get a pet', 'DELETE /pets/{petId}', 'Add a pet'];
      expect(text.filter((l) => titles.includes(l))).toEqual([
        'Get a pet',
        'DELETE /pets/{petId}',
        'DELETE /pets/{petId}',
        'Add a pet',
      ]);
      expect(text).toContain('application/json: Pet');
    }
    const info = lines((await compute({ doc: 'info', page: 'info' })).body);
    expect(info).toEqual(['Pet Store', 'Version 2.1.0', 'Pets, adopted.', 'Servers', 'https://pets.example.com/v2']);
    const models = lines((await compute({ doc: 'models' })).body);
    expect(models).toEqual([
      'Models',
      'Pet',
      'A pet.',
      'Property | Type | Required | Description',
      'name | string | yes | Its name',
      'tags | array of string | no |',
    ]);
  });

  it('answers 404 for a part or specification that is not there or not visible, 409 before processing', async () => {
    const ctx = await world();
    expect((await ctx.compute({ doc: 'operation', page: '/pets', method: 'get' })).status).toBe(404);
    expect((await ctx.compute({ doc: 'tag', page: 'cats' })).status).toBe(404);
    const missing = await ctx.compute({ doc: 'models' }, ctx.admin.client, 'nope');
    expect([missing.status, missing.body.error.message]).toEqual([404, 'OpenAPI specification nope not found']);
    // Another organization's specification is not found from this space.
    const other = await world();
    expect((await other.compute({ doc: 'models' })).status).toBe(200);
    const theirs = `${specsUrl(other.orgId)}/theirs`;
    expect((await other.admin.client.put(theirs, { source: { text: JSON.stringify(SPEC) } })).status).toBe(201);
    await processed(other.admin.client, theirs);
    expect((await ctx.compute({ doc: 'models' }, ctx.admin.client, 'theirs')).status).toBe(404);
    // A guest who reads the space does not see the organization's specifications.
    const guest = await h.member(ctx.orgId, null);
    const grant = await ctx.admin.client.post(`${ctx.base}/permissions`, { users: [guest.user.id], role: 'read' });
    expect(grant.status).toBeLessThan(300);
    expect((await ctx.compute({ doc: 'models' }, guest.client)).status).toBe(404);
    const outsider = await h.user();
    expect((await ctx.compute({ doc: 'models' }, outsider.client)).status).toBe(404);
    // Made, not processed yet: its job has not run.
    const pending = await ctx.admin.client.put(`${specsUrl(ctx.orgId)}/later`, {
      source: { url: 'http://127.0.0.1:9/x' },
    });
    expect(pending.status).toBe(201);
    const early = await ctx.compute({ doc: 'models' }, ctx.admin.client, 'later');
    expect([409, 404]).toContain(early.status);
  });

  it('answers 400 for bad props, other source types and computed revisions', async () => {
    const { compute, admin, base } = await world();
    for (const props of [
      {},
      { doc: 'nope' },
      { doc: 'tag' },
      { doc: 'operation', page: '/pets' },
      { doc: 'operation', page: '/pets', method: 'fetch' },
    ]) {
      const res = await compute(props);
      expect([JSON.stringify(props), res.status]).toEqual([JSON.stringify(props), 400]);
      expect(res.body.error.message).toContain('body/source/props');
    }
    const noRef = await admin.client.post(`${base}/content/computed/document`, {
      source: { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: {} },
      seed: 'x',
    });
    expect([noRef.status, noRef.body.error.message]).toEqual([400, expect.stringContaining('dependencies/spec')]);
    const translation = await admin.client.post(`${base}/content/computed/document`, {
      source: { type: 'builtin:translation', props: { space: 'a', document: 'b' }, dependencies: {} },
      seed: 'x',
    });
    expect([translation.status, translation.body.error.message]).toEqual([
      400,
      expect.stringContaining('only builtin:openapi'),
    ]);
    const revision = (props: object) =>
      admin.client.post(`${base}/content/computed/revision`, {
        source: { type: 'builtin:openapi', props, dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } } },
        seed: 'x',
      });
    for (const props of [{}, { models: 'yes' }, { models: true, grouping: 'by-path' }]) {
      const res = await revision(props);
      expect([JSON.stringify(props), res.status]).toEqual([JSON.stringify(props), 400]);
      expect(res.body.error.message).toContain('body/source/props');
    }
  });
});

describe('getComputedRevision, builtin:openapi', () => {
  const compute = (ctx: Awaited<ReturnType<typeof world>>, props: object, seed = 'seed-1') =>
    ctx.admin.client.post(`${ctx.base}/content/computed/revision`, {
      source: { type: 'builtin:openapi', props, dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } } },
      seed,
    });

  it('makes a page per tag with its operations, and Models when asked; ids follow the seed', async () => {
    const ctx = await world();
    const res = await compute(ctx, { models: true });
    expect(res.status).toBe(200);
    expect(validateResponse('getComputedRevision', 200, res.body)).toEqual([]);
    expect(res.body.files).toEqual([]);
    expect(res.body.reusableContents).toEqual([]);
    expect(res.body.pages.map((p: any) => [p.title, p.slug, p.pages.length])).toEqual([
      ['pets', 'pets', 0],
      ['Models', 'models', 0],
    ]);
    const tag = lines(res.body.pages[0].document);
    expect(tag[0]).toBe('Everything about pets.');
    expect(tag).toContain('Get a pet');
    expect(tag).toContain('Add a pet');
    expect(lines(res.body.pages[1].document)[0]).toBe('Pet');
    const again = await compute(ctx, { models: true });
    expect(again.body.pages.map((p: any) => p.id)).toEqual(res.body.pages.map((p: any) => p.id));
    const reseeded = await compute(ctx, { models: true }, 'seed-2');
    expect(reseeded.body.pages[0].id).not.toBe(res.body.pages[0].id);
    // Nothing is stored: the space's own content is unchanged.
    expect((await ctx.admin.client.get(`${ctx.base}/content/pages`)).body.pages).toEqual([]);
  });

  it('by-operation: a page per operation under its tag, without Models unless asked', async () => {
    const ctx = await world();
    const res = await compute(ctx, { models: false, grouping: 'by-operation' });
    expect(res.status).toBe(200);
    expect(validateResponse('getComputedRevision', 200, res.body)).toEqual([]);
    expect(res.body.pages.map((p: any) => p.title)).toEqual(['pets']);
    const [tag] = res.body.pages;
    expect(lines(tag.document)).toEqual(['Everything about pets.']);
    expect(tag.pages.map((p: any) => [p.title, p.slug])).toEqual([
      ['Get a pet', 'get-a-pet'],
      ['DELETE /pets/{petId}', 'delete-pets-petid'],
      ['Add a pet', 'add-a-pet'],
    ]);
    expect(lines(tag.pages[0].document).slice(0, 2)).toEqual(['Finds one pet | by id.', 'GET /pets/{petId}']);
  });

  it('is for readers of the space (404 otherwise); an unknown specification is a 404', async () => {
    const ctx = await world();
    const outsider = await h.user();
    const res = await outsider.client.post(`${ctx.base}/content/computed/revision`, {
      source: {
        type: 'builtin:openapi',
        props: { models: true },
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
      },
      seed: 'x',
    });
    expect(res.status).toBe(404);
    const missing = await ctx.admin.client.post(`${ctx.base}/content/computed/revision`, {
      source: {
        type: 'builtin:openapi',
        props: { models: true },
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } },
      },
      seed: 'x',
    });
    expect(missing.status).toBe(404);
  });
});
