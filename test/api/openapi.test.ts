import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processSpecJob } from '../../src/api/openapi/process.js';
import { type App, buildApp } from '../../src/app.js';
import { claimJob } from '../../src/jobs/queue.js';
import { type Client, createHarness, type Harness } from '../helpers/app.js';

/** A tiny server for the specifications under test: path → body (or a slow or failing answer). */
type Served = { body: string; type?: string } | { status: number } | { delayMs: number };
const served = new Map<string, Served>();
const server = http.createServer((request, response) => {
  const entry = served.get(request.url ?? '');
  if (!entry) return response.writeHead(404).end('not found');
  if ('delayMs' in entry) {
    setTimeout(() => response.end('{}'), entry.delayMs).unref();
    return;
  }
  if ('status' in entry) return response.writeHead(entry.status).end();
  response.writeHead(200, { 'content-type': entry.type ?? 'application/json' }).end(entry.body);
});
let base = '';

let h: Harness;
const WORKER = { fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 50, fetchTimeoutMs: 1000 };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await createHarness(WORKER);
});
afterAll(async () => {
  await h.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let counter = 0;
/** Serves `document` at a fresh path; returns its URL. */
function serve(document: unknown, path = `/spec-${++counter}/openapi.json`): string {
  served.set(path, { body: typeof document === 'string' ? document : JSON.stringify(document) });
  return `${base}${path}`;
}

function petstore(title = 'Pets', extraPaths: Record<string, unknown> = {}) {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: { '/pets': { get: { responses: { 200: { description: 'the pets' } } } }, ...extraPaths },
  };
}

const specsUrl = (orgId: string) => `/v1/orgs/${orgId}/openapi`;

/** Polls the specification until its processing is complete (bounded). */
async function processed(client: Client, url: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(url);
    expect(res.status).toBe(200);
    if (res.body.processingState === 'complete') return res.body;
    if (Date.now() > deadline) throw new Error(`specification still ${res.body.processingState}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('OpenAPI specifications: processing', () => {
  it('processes a URL source into a complete version that latest and content return', async () => {
    const org = await h.org();
    const document = petstore();
    const sourceURL = serve(document);
    const res = await org.admin.client.post(specsUrl(org.id), { slug: 'pets', source: { url: sourceURL } });
    expect(res.status).toBe(201);
    const location = `http://bindery.test${specsUrl(org.id)}/pets`;
    expect(res.headers.location).toBe(location);
    expect(res.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      sourceURL,
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location, app: `http://bindery.test/o/${org.id}/openapi/pets` },
    });
    expect(res.body.lastVersion).toBeUndefined();

    const spec = await processed(org.admin.client, `${specsUrl(org.id)}/pets`);
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessedAt).toEqual(expect.any(String));
    expect(spec.lastProcessErrorCode).toBeUndefined();

    const latest = await org.admin.client.get(`${specsUrl(org.id)}/pets/versions/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({
      object: 'openapi-spec-version',
      id: spec.lastVersion,
      url: sourceURL,
      urls: { location: `${location}/versions/${spec.lastVersion}` },
    });
    const byId = await org.admin.client.get(`${specsUrl(org.id)}/pets/versions/${spec.lastVersion}`);
    expect(byId.body).toEqual(latest.body);

    const content = await org.admin.client.get(`${specsUrl(org.id)}/pets/versions/latest/content`);
    expect(content.status).toBe(200);
    expect(content.body).toEqual({
      filesystem: { 'openapi.json': document },
      url: sourceURL,
      urls: { source: sourceURL, public: null },
    });
    const contentById = await org.admin.client.get(`${specsUrl(org.id)}/pets/versions/${spec.lastVersion}/content`);
    expect(contentById.body).toEqual(content.body);
  });

  it('makes a new version when the document changed, and none when it did not', async () => {
    const org = await h.org();
    const path = `/changing-${++counter}/openapi.json`;
    const url = serve(petstore('v1'), path);
    const specUrl = `${specsUrl(org.id)}/changing`;
    await org.admin.client.post(specsUrl(org.id), { slug: 'changing', source: { url } });
    const first = await processed(org.admin.client, specUrl);

    const again = await org.admin.client.put(specUrl, { source: { url } });
    expect(again.status).toBe(200);
    expect(again.body.processingState).toBe('pending');
    const unchanged = await processed(org.admin.client, specUrl);
    expect(unchanged.lastVersion).toBe(first.lastVersion);
    expect((await org.admin.client.get(`${specUrl}/versions`)).body.count).toBe(1);

    serve(petstore('v2'), path);
    await org.admin.client.put(specUrl, { source: { url } });
    const changed = await processed(org.admin.client, specUrl);
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    const versions = await org.admin.client.get(`${specUrl}/versions`);
    expect(versions.body.count).toBe(2);
    expect(versions.body.items.map((v: { id: string }) => v.id)).toEqual([changed.lastVersion, first.lastVersion]);
    // Versions are immutable: the first still holds the first document.
    const old = await org.admin.client.get(`${specUrl}/versions/${first.lastVersion}/content`);
    expect(old.body.filesystem['openapi.json'].info.title).toBe('v1');
    const latest = await org.admin.client.get(`${specUrl}/versions/latest/content`);
    expect(latest.body.filesystem['openapi.json'].info.title).toBe('v2');
  });

  it('stores the files an external $ref points to in the filesystem', async () => {
    const org = await h.org();
    const folder = `/multi-${++counter}`;
    served.set(`${folder}/openapi.yaml`, {
      type: 'application/yaml',
      body: [
        'openapi: 3.0.3',
        'info: {title: Split, version: "1"}',
        'paths:',
        '  /pets:',
        '    get:',
        '      responses:',
        '        "200":',
        '          description: ok',
        '          content:',
        '            application/json:',
        '              schema: {$ref: "./schemas/pet.yaml#/Pet"}',
      ].join('\n'),
    });
    served.set(`${folder}/schemas/pet.yaml`, {
      type: 'application/yaml',
      body: 'Pet:\n  type: object\n  properties:\n    name: {type: string}\n',
    });
    await org.admin.client.post(specsUrl(org.id), { slug: 'split', source: { url: `${base}${folder}/openapi.yaml` } });
    const spec = await processed(org.admin.client, `${specsUrl(org.id)}/split`);
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const content = await org.admin.client.get(`${specsUrl(org.id)}/split/versions/latest/content`);
    expect(Object.keys(content.body.filesystem)).toEqual(['openapi.yaml', 'schemas/pet.yaml']);
    expect(content.body.filesystem['schemas/pet.yaml']).toEqual({
      Pet: { type: 'object', properties: { name: { type: 'string' } } },
    });
    expect(content.body.filesystem['openapi.yaml'].info.title).toBe('Split');
  });

  it('ends with FETCH_TIMEOUT when the source is too slow', async () => {
    const org = await h.org();
    const path = `/slow-${++counter}`;
    served.set(path, { delayMs: 5_000 });
    await org.admin.client.post(specsUrl(org.id), { slug: 'slow', source: { url: `${base}${path}` } });
    const spec = await processed(org.admin.client, `${specsUrl(org.id)}/slow`);
    expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(spec.lastProcessedErrorCount).toBe(1);
    expect(spec.lastVersion).toBeUndefined();
    expect((await org.admin.client.get(`${specsUrl(org.id)}/slow/versions/latest`)).status).toBe(404);
  });

  it('keeps the last good version when a new document is invalid or unreachable', async () => {
    const org = await h.org();
    const path = `/breaking-${++counter}/openapi.json`;
    const url = serve(petstore('good'), path);
    const specUrl = `${specsUrl(org.id)}/breaking`;
    await org.admin.client.post(specsUrl(org.id), { slug: 'breaking', source: { url } });
    const good = await processed(org.admin.client, specUrl);

    serve({ openapi: '3.0.3', info: { version: '1' } }, path);
    await org.admin.client.put(specUrl, { source: { url } });
    const invalid = await processed(org.admin.client, specUrl);
    expect(invalid.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(invalid.lastProcessedErrors.length).toBeGreaterThan(0);
    expect(invalid.lastProcessedErrors[0].message).toEqual(expect.any(String));
    expect(invalid.lastVersion).toBe(good.lastVersion);
    const latest = await org.admin.client.get(`${specUrl}/versions/latest/content`);
    expect(latest.body.filesystem['openapi.json'].info.title).toBe('good');

    served.set(path, { body: 'openapi: [unclosed' });
    await org.admin.client.put(specUrl, { source: { url } });
    expect((await processed(org.admin.client, specUrl)).lastProcessErrorCode).toBe('PARSE_ERROR');

    served.set(path, { status: 500 });
    await org.admin.client.put(specUrl, { source: { url } });
    const unreachable = await processed(org.admin.client, specUrl);
    expect(unreachable.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(unreachable.lastVersion).toBe(good.lastVersion);

    serve(petstore('good again'), path);
    await org.admin.client.put(specUrl, { source: { url } });
    const recovered = await processed(org.admin.client, specUrl);
    expect(recovered.lastProcessErrorCode).toBeUndefined();
    expect(recovered.lastProcessedErrorCount).toBe(0);
    expect(recovered.lastVersion).not.toBe(good.lastVersion);
  });

  it('creates from text (JSON or YAML); relative references cannot be resolved there', async () => {
    const org = await h.org();
    const document = petstore('From text');
    const res = await org.admin.client.post(specsUrl(org.id), {
      slug: 'text',
      source: { text: JSON.stringify(document) },
    });
    expect(res.status).toBe(201);
    expect(res.body.sourceURL).toBeUndefined();
    const spec = await processed(org.admin.client, `${specsUrl(org.id)}/text`);
    const latest = await org.admin.client.get(`${specsUrl(org.id)}/text/versions/latest`);
    expect(latest.body.url).toBe(`http://bindery.test${specsUrl(org.id)}/text/versions/${spec.lastVersion}/content`);
    const content = await org.admin.client.get(`${specsUrl(org.id)}/text/versions/latest/content`);
    expect(content.body.filesystem).toEqual({ 'openapi.json': document });

    const yamlText = 'swagger: "2.0"\ninfo: {title: Old, version: "1"}\npaths: {}\n';
    await org.admin.client.put(`${specsUrl(org.id)}/text`, { source: { text: yamlText } });
    const swagger = await processed(org.admin.client, `${specsUrl(org.id)}/text`);
    expect(swagger.lastProcessErrorCode).toBeUndefined();
    const yamlContent = await org.admin.client.get(`${specsUrl(org.id)}/text/versions/latest/content`);
    expect(yamlContent.body.filesystem).toEqual({
      'openapi.yaml': { swagger: '2.0', info: { title: 'Old', version: '1' }, paths: {} },
    });

    const relative = { ...petstore(), components: { schemas: { Pet: { $ref: './pet.yaml' } } } };
    await org.admin.client.put(`${specsUrl(org.id)}/text`, { source: { text: JSON.stringify(relative) } });
    const refused = await processed(org.admin.client, `${specsUrl(org.id)}/text`);
    expect(refused.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(refused.lastProcessedErrors[0].message).toContain('./pet.yaml');
    expect(refused.lastVersion).toBe(swagger.lastVersion);
  });

  it('refuses a YAML alias bomb (from text or URL) without expanding it', async () => {
    const org = await h.org();
    const lines = [
      'openapi: 3.0.3',
      'info: {title: Bomb, version: "1"}',
      'paths: {}',
      'l0: &l0 [x, x, x, x, x, x, x, x, x, x]',
    ];
    for (let i = 1; i <= 9; i++)
      lines.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const bomb = lines.join('\n');
    const started = Date.now();
    await org.admin.client.post(specsUrl(org.id), { slug: 'bomb-text', source: { text: bomb } });
    const fromText = await processed(org.admin.client, `${specsUrl(org.id)}/bomb-text`);
    expect(fromText.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(fromText.lastProcessedErrors[0].message).toContain('expands to more than');
    const path = `/bomb-${++counter}/openapi.yaml`;
    served.set(path, { body: bomb, type: 'application/yaml' });
    await org.admin.client.post(specsUrl(org.id), { slug: 'bomb-url', source: { url: `${base}${path}` } });
    const fromUrl = await processed(org.admin.client, `${specsUrl(org.id)}/bomb-url`);
    expect(fromUrl.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(fromUrl.lastProcessedErrors[0].message).toContain('expands to more than');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('finishes a job interrupted by a restart in the next process', async () => {
    // No other worker may take the job: this harness's own one pauses for the test.
    await h.app.jobs.stop();
    let restarted: App | undefined;
    try {
      const org = await h.org();
      const url = serve(petstore('Restart'));
      const created = await org.admin.client.post(specsUrl(org.id), { slug: 'restart', source: { url } });
      // A worker that claimed the job and died: its lease (1 ms) runs out at once.
      const crashed = await claimJob(h.db, 'crashed-worker', ['openapi.process'], 1);
      expect(crashed).not.toBeNull();
      expect(JSON.parse(crashed!.payload)).toEqual({ specId: created.body.id, revision: 1 });
      expect((await org.admin.client.get(`${specsUrl(org.id)}/restart`)).body.processingState).toBe('pending');

      restarted = await buildApp({ config: { ...h.app.config, ...WORKER }, db: h.db, migrate: false, logger: false });
      await restarted.ready();
      const spec = await processed(org.admin.client, `${specsUrl(org.id)}/restart`);
      expect(spec.lastVersion).toEqual(expect.any(String));
      const job = await h.db.selectFrom('jobs').selectAll().where('id', '=', crashed!.id).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
    } finally {
      await restarted?.close();
      h.app.jobs.start();
    }
  });
  it('records a failure once when the job is retried after its worker died having recorded it', async () => {
    await h.app.jobs.stop();
    let restarted: App | undefined;
    try {
      const org = await h.org();
      const created = await org.admin.client.post(specsUrl(org.id), { slug: 'fails', source: { text: '{ nope' } });
      expect(created.status).toBe(201);
      // A worker claimed the job, ran it to the end (its outcome and event committed) and died
      // before the job was marked done: its lease (1 ms) runs out at once.
      const crashed = await claimJob(h.db, 'crashed-worker', ['openapi.process'], 1);
      expect(crashed).not.toBeNull();
      const context = { jobId: crashed!.id, attempt: 1, signal: new AbortController().signal, log: h.app.log };
      await processSpecJob(h.app)(JSON.parse(crashed!.payload), context);
      const failedOnce = await processed(org.admin.client, `${specsUrl(org.id)}/fails`);
      expect(failedOnce.lastProcessErrorCode).toBe('PARSE_ERROR');
      const failures = async () =>
        (await org.admin.client.get(`/v1/orgs/${org.id}/audit-events?action=openapi.processing.failed`)).body.items;
      expect(await failures()).toHaveLength(1);

      restarted = await buildApp({ config: { ...h.app.config, ...WORKER }, db: h.db, migrate: false, logger: false });
      await restarted.ready();
      const deadline = Date.now() + 10_000;
      let job = await h.db.selectFrom('jobs').selectAll().where('id', '=', crashed!.id).executeTakeFirstOrThrow();
      while (job.state !== 'done' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        job = await h.db.selectFrom('jobs').selectAll().where('id', '=', crashed!.id).executeTakeFirstOrThrow();
      }
      expect(job).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
      expect(await failures()).toHaveLength(1);
      const after = (await org.admin.client.get(`${specsUrl(org.id)}/fails`)).body;
      expect(after).toMatchObject({ processingState: 'complete', lastProcessedAt: failedOnce.lastProcessedAt });
    } finally {
      await restarted?.close();
      h.app.jobs.start();
    }
  });
});

describe('OpenAPI specifications: API', () => {
  it.each([
    ['', 400],
    ['a', 201],
    ['a'.repeat(100), 201],
    ['a'.repeat(101), 400],
    ['two-words-3', 201],
    ['Upper', 400],
    ['a--b', 400],
    ['-a', 400],
    ['a-', 400],
    ['a_b', 400],
  ])('slug %j -> %i', async (slug, status) => {
    const org = await h.org();
    const res = await org.admin.client.post(specsUrl(org.id), { slug, source: { text: JSON.stringify(petstore()) } });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain('slug');
    else expect(res.body.slug).toBe(slug);
  });

  it('refuses a duplicate slug (409), bad sources and unknown fields (400)', async () => {
    const org = await h.org();
    const text = JSON.stringify(petstore());
    expect((await org.admin.client.post(specsUrl(org.id), { slug: 'dup', source: { text } })).status).toBe(201);
    const dup = await org.admin.client.post(specsUrl(org.id), { slug: 'dup', source: { text } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toContain('dup');
    // The same slug in another organization is fine.
    const other = await h.org();
    expect((await other.admin.client.post(specsUrl(other.id), { slug: 'dup', source: { text } })).status).toBe(201);
    for (const body of [
      { slug: 'x', source: {} },
      { slug: 'x', source: { text: '' } },
      { slug: 'x', source: { url: 'not a url' } },
      { slug: 'x', source: { url: 'ftp://example.com/spec.json' } },
      { slug: 'x', source: { url: `https://example.com/${'a'.repeat(2048)}` } },
      { slug: 'x', source: { text }, extra: 1 },
      { source: { text } },
    ]) {
      const res = await org.admin.client.post(specsUrl(org.id), body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it('refuses a loopback or private URL when fetchAllowPrivate is false', async () => {
    const guarded = await createHarness();
    try {
      const org = await guarded.org();
      for (const url of [
        serve(petstore()),
        'http://localhost/spec.json',
        'http://[::1]/spec',
        'http://169.254.169.254/',
      ]) {
        const res = await org.admin.client.post(specsUrl(org.id), { slug: 'local', source: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.error.message).toContain('private or reserved address');
      }
      const put = await org.admin.client.put(`${specsUrl(org.id)}/local`, { source: { url: serve(petstore()) } });
      expect(put.status).toBe(400);
      expect((await org.admin.client.get(specsUrl(org.id))).body.count).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('PUT creates (201, Location) then updates (200); its slug must be valid', async () => {
    const org = await h.org();
    const text = JSON.stringify(petstore());
    const created = await org.admin.client.put(`${specsUrl(org.id)}/by-put`, { source: { text } });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`http://bindery.test${specsUrl(org.id)}/by-put`);
    const url = serve(petstore());
    const updated = await org.admin.client.put(`${specsUrl(org.id)}/by-put`, { source: { url } });
    expect(updated.status).toBe(200);
    expect(updated.headers.location).toBeUndefined();
    expect(updated.body).toMatchObject({ id: created.body.id, sourceURL: url, processingState: 'pending' });
    expect((await org.admin.client.put(`${specsUrl(org.id)}/Bad_Slug`, { source: { text } })).status).toBe(400);
    // A slug of 101 characters is a 400 naming the slug (the router accepts long segments).
    expect((await org.admin.client.put(`${specsUrl(org.id)}/${'a'.repeat(101)}`, { source: { text } })).status).toBe(
      400,
    );
    expect((await org.admin.client.put(`${specsUrl(org.id)}/${'a'.repeat(100)}`, { source: { text } })).status).toBe(
      201,
    );
    expect((await org.admin.client.put(`${specsUrl(org.id)}/by-put`, {})).status).toBe(400);
  });

  it('deletes (204), then the specification and its versions are gone (404)', async () => {
    const org = await h.org();
    const specUrl = `${specsUrl(org.id)}/gone`;
    await org.admin.client.post(specsUrl(org.id), { slug: 'gone', source: { text: JSON.stringify(petstore()) } });
    const spec = await processed(org.admin.client, specUrl);
    expect((await org.admin.client.delete(specUrl)).status).toBe(204);
    expect((await org.admin.client.get(specUrl)).status).toBe(404);
    expect((await org.admin.client.get(`${specUrl}/versions`)).status).toBe(404);
    expect((await org.admin.client.get(`${specUrl}/versions/${spec.lastVersion}`)).status).toBe(404);
    expect((await org.admin.client.delete(specUrl)).status).toBe(404);
    // The slug is free again.
    const again = await org.admin.client.post(specsUrl(org.id), { slug: 'gone', source: { text: '{}' } });
    expect(again.status).toBe(201);
  });

  it('pages specifications and versions (newest version first)', async () => {
    const org = await h.org();
    for (const slug of ['c', 'a', 'b']) {
      await org.admin.client.post(specsUrl(org.id), { slug, source: { text: JSON.stringify(petstore(slug)) } });
    }
    const first = await org.admin.client.get(`${specsUrl(org.id)}?limit=2`);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((s: { slug: string }) => s.slug)).toEqual(['a', 'b']);
    const rest = await org.admin.client.get(`${specsUrl(org.id)}?limit=2&page=${first.body.next.page}`);
    expect(rest.body.items.map((s: { slug: string }) => s.slug)).toEqual(['c']);
    expect(rest.body.next).toBeUndefined();

    const specUrl = `${specsUrl(org.id)}/a`;
    // Its first version exists once its creation is processed: a new source arriving before that
    // makes the creation's job obsolete (it is skipped), and 'a' would then have three versions.
    await processed(org.admin.client, specUrl);
    const made: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      await org.admin.client.put(specUrl, { source: { text: JSON.stringify(petstore(title)) } });
      made.unshift((await processed(org.admin.client, specUrl)).lastVersion);
    }
    // 'a' already had the version of its creation, so four in all.
    const page1 = await org.admin.client.get(`${specUrl}/versions?limit=2`);
    expect(page1.body.count).toBe(4);
    const page2 = await org.admin.client.get(`${specUrl}/versions?limit=2&page=${page1.body.next.page}`);
    expect(page2.body.next).toBeUndefined();
    const ids = [...page1.body.items, ...page2.body.items].map((v: { id: string }) => v.id);
    expect(ids.slice(0, 3)).toEqual(made);
    expect(new Set(ids).size).toBe(4);
    expect((await org.admin.client.get(`${specUrl}/versions?limit=0`)).body).toEqual({ items: [], count: 4 });
    expect((await org.admin.client.get(`${specUrl}/versions?page=garbage`)).status).toBe(400);
  });

  it('members read, the create role and above write; outsiders and guests get 404', async () => {
    const org = await h.org();
    const text = JSON.stringify(petstore());
    await org.admin.client.post(specsUrl(org.id), { slug: 'perm', source: { text } });
    await processed(org.admin.client, `${specsUrl(org.id)}/perm`);
    const specUrl = `${specsUrl(org.id)}/perm`;

    for (const [role, edit] of [
      ['admin', true],
      ['create', true],
      ['review', false],
      ['edit', false],
      ['comment', false],
      ['read', false],
    ] as const) {
      const member = await h.member(org.id, role);
      const got = await member.client.get(specUrl);
      expect(got.status).toBe(200);
      expect(got.body.permissions, role).toEqual({ view: true, edit });
      expect((await member.client.get(specsUrl(org.id))).body.items[0].permissions.edit).toBe(edit);
      expect((await member.client.get(`${specUrl}/versions/latest/content`)).status).toBe(200);
      const write = await member.client.put(specUrl, { source: { text } });
      expect(write.status, role).toBe(edit ? 200 : 403);
      const create = await member.client.post(specsUrl(org.id), { slug: `by-${role}`, source: { text } });
      expect(create.status, role).toBe(edit ? 201 : 403);
      if (!edit) expect((await member.client.delete(specUrl)).status).toBe(403);
    }

    const outsider = await h.user();
    const guest = await h.member(org.id, null);
    for (const client of [outsider.client, guest.client]) {
      expect((await client.get(specsUrl(org.id))).status).toBe(404);
      expect((await client.get(specUrl)).status).toBe(404);
      expect((await client.get(`${specUrl}/versions`)).status).toBe(404);
      expect((await client.put(specUrl, { source: { text } })).status).toBe(404);
      expect((await client.delete(specUrl)).status).toBe(404);
    }

    const readOnly = await h.member(org.id, 'admin', { scopes: ['openapi:read'] });
    expect((await readOnly.client.get(specUrl)).status).toBe(200);
    expect((await readOnly.client.put(specUrl, { source: { text } })).status).toBe(403);
    const otherScope = await h.member(org.id, 'admin', { scopes: ['organization:read'] });
    expect((await otherScope.client.get(specUrl)).status).toBe(403);
  });
});
