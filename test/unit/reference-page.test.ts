/**
 * The API reference page (/docs) written from an OpenAPI document: operations grouped by tag with
 * their anchors, every text escaped, schemas as field lists, named schemas listed once and linked,
 * and a document that is not well formed drawn as far as it goes rather than failing.
 */
import { describe, expect, it } from 'vitest';
import { referenceBody } from '../../src/pages/reference-page.js';

const links = { openapi: '/v1/openapi.json', interactive: '/docs/redoc', home: '/' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A Space-like shape of `n` fields (enough to be listed once when it occurs twice). */
const spaceShape = () => ({
  type: 'object',
  required: ['object', 'id'],
  properties: {
    object: { type: 'string', enum: ['space'] },
    id: { type: 'string' },
    title: { type: 'string', maxLength: 50 },
    visibility: { type: 'string', enum: ['public', 'private'] },
    urls: { type: 'object', properties: { app: { type: 'string' } } },
  },
});

const document = {
  openapi: '3.1.0',
  info: { title: 'Test <API>', version: '1.0.0', description: 'Send `Authorization: Bearer <token>`.' },
  servers: [{ url: 'http://127.0.0.1:1' }],
  paths: {
    '/v1/spaces/{spaceId}': {
      get: {
        operationId: 'getSpaceById',
        tags: ['spaces'],
        summary: 'Read a <space>',
        parameters: [
          { name: 'spaceId', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        ],
        responses: {
          200: { description: 'Default Response', ...json(spaceShape()) },
          '4XX': json({ $ref: '#/components/schemas/Error' }),
        },
      },
      patch: {
        operationId: 'updateSpaceById',
        tags: ['spaces'],
        description: 'Changes it.\n\nSecond paragraph with <b>markup</b>.',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            properties: {
              title: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'The title, `null` to clear' },
              mode: {
                anyOf: [
                  { type: 'string', enum: ['live'] },
                  { type: 'string', enum: ['locked'] },
                ],
              },
              tags: { type: 'array', items: { type: 'string', maxLength: 10 }, maxItems: 5 },
              meta: { type: 'object', additionalProperties: { type: 'string' } },
              node: {
                anyOf: [
                  {
                    type: 'object',
                    required: ['kind'],
                    properties: { kind: { const: 'text' }, text: { type: 'string' } },
                  },
                  {
                    type: 'object',
                    required: ['kind'],
                    properties: { kind: { const: 'image' }, src: { type: 'string' } },
                  },
                ],
              },
              '"><script>alert(1)</script>': { type: 'string', description: '<img src=x onerror=alert(1)>' },
            },
          }),
        },
        responses: { 200: json(spaceShape()) },
      },
    },
    '/v1/public': {
      get: { operationId: 'publicThing', security: [], responses: { 204: { description: 'No content' } } },
    },
  },
  components: {
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

describe('referenceBody', () => {
  const html = referenceBody(document, links);

  it('groups operations by tag, each with its anchor, operationId heading, method and path', () => {
    expect(html).toContain('<section class="tag" id="tag/spaces"><h2>spaces</h2>');
    expect(html).toContain(
      '<section class="op" id="operation/getSpaceById"><h3 elementtiming="operation">getSpaceById</h3>',
    );
    expect(html).toContain('<span class="method patch">PATCH</span> <code class="path">/v1/spaces/{spaceId}</code>');
    // An operation without a tag is listed last, under "other".
    expect(html.indexOf('id="tag/other"')).toBeGreaterThan(html.indexOf('id="tag/spaces"'));
    expect(html).toContain('<a href="#operation/publicThing">');
    expect(html).toContain('No token needed.');
  });

  it('escapes every text of the document and renders only its `code` spans', () => {
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<code class="name">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>');
    expect(html).toContain('Read a &lt;space&gt;');
    expect(html).toContain('<h1>Test &lt;API&gt; reference');
    expect(html).toContain('Send <code>Authorization: Bearer &lt;token&gt;</code>.');
    expect(html).toContain('<p class="desc">Second paragraph with &lt;b&gt;markup&lt;/b&gt;.</p>');
  });

  it('shows parameters with their place, whether required, type and limits', () => {
    expect(html).toContain(
      '<code class="name">spaceId</code> <span class="in">path</span> <span class="req">required</span>',
    );
    expect(html).toContain(
      '<span class="type">integer</span> <span class="notes">1–100; default <code>20</code></span>',
    );
  });

  it('lists fields: nullable, enumerations, arrays, maps and the shapes of a union', () => {
    expect(html).toContain('<code class="name">title</code> <span class="type">string | null</span>');
    expect(html).toContain('The title, <code>null</code> to clear');
    expect(html).toContain(
      '<code class="name">mode</code> <span class="type">string</span> <span class="notes"><code>live</code>, <code>locked</code></span>',
    );
    expect(html).toContain(
      '<span class="type">array of string</span> <span class="notes">≤ 5 items; each: ≤ 10 characters</span>',
    );
    expect(html).toContain('<span class="type">map of string</span>');
    expect(html).toContain('<span class="type">object (one of 2 shapes)</span>');
    expect(html).toContain('<details><summary>one of 2 shapes</summary>');
    expect(html).toContain('<span class="shape"><code>kind</code> <code>text</code></span>');
  });

  it('lists a shape found in several places once, under its object name, and links to it', () => {
    expect(html).toContain('<section class="component" id="schemas/Space"><h3>Space</h3>');
    expect(html.match(/<code class="name">visibility<\/code>/g)).toHaveLength(1);
    expect(html).toContain(
      '<span class="code s2">200</span> <span class="media">application/json</span> <span class="type"><a href="#schemas/Space">Space</a></span>',
    );
    // A $ref to a component links to it; the component is listed with its fields (nested ones folded).
    expect(html).toContain('<a href="#schemas/Error">Error</a>');
    expect(html).toContain('<section class="component" id="schemas/Error"><h3>Error</h3>');
    expect(html).toContain('<details><summary>2 fields</summary>');
  });

  it('has a table of contents of every tag, operation and schema', () => {
    const toc = html.slice(html.indexOf('<nav'));
    for (const anchor of [
      'tag/spaces',
      'operation/getSpaceById',
      'operation/updateSpaceById',
      'schemas/Error',
      'schemas/Space',
    ]) {
      expect(toc).toContain(`href="#${anchor}"`);
    }
  });

  it('draws what it can of a document that is not well formed', () => {
    const odd = referenceBody(
      {
        paths: {
          '/x': { get: { parameters: [null, { name: 'q' }], responses: { 200: json({ type: 'array' }) } } },
          '/y': 5,
        },
      },
      links,
    );
    expect(odd).toContain('id="operation/get--x"');
    expect(odd).toContain('array of any');
    expect(referenceBody(null, links)).toContain('<main>');
  });

  it('stops listing fields of a schema nested deeper than any real one', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 30; i++) deep = { type: 'object', properties: { [`level${i}`]: deep } };
    const page = referenceBody(
      { paths: { '/deep': { post: { operationId: 'deep', requestBody: json(deep) } } } },
      links,
    );
    expect(page).toContain('(nested too deep to list)');
    expect(page).not.toContain('level0');
  });
});
