/**
 * How OpenAPI specifications are processed by the `openapi.process` job: sources fetched from a
 * server on loopback or given as text (JSON or YAML), new versions only for changed documents,
 * external `$ref` files, timeouts, parse and fetch failures that keep the last good version, YAML
 * alias bombs, and jobs interrupted by a restart. The API itself (slugs, bodies, paging, roles) is in
 * openapi.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processSpecJob } from '../../src/api/openapi/process.js';
import { type App, buildApp } from '../../src/app.js';
import { claimJob } from '../../src/jobs/queue.js';
import type { Harness } from '../helpers/app.js';
import {
  fresh,
  petstore,
  processed,
  serve,
  served,
  sourceUrl,
  specsUrl,
  startOpenAPIHarness,
  WORKER,
} from '../helpers/openapi.js';

let h: Harness;
beforeAll(async () => {
  h = await startOpenAPIHarness();
});
afterAll(async () => h.close());

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
    const path = `/changing-${fresh()}/openapi.json`;
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
    const folder = `/multi-${fresh()}`;
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
    await org.admin.client.post(specsUrl(org.id), {
      slug: 'split',
      source: { url: sourceUrl(`${folder}/openapi.yaml`) },
    });
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
    const path = `/slow-${fresh()}`;
    served.set(path, { delayMs: 5_000 });
    await org.admin.client.post(specsUrl(org.id), { slug: 'slow', source: { url: sourceUrl(path) } });
    const spec = await processed(org.admin.client, `${specsUrl(org.id)}/slow`);
    expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(spec.lastProcessedErrorCount).toBe(1);
    expect(spec.lastVersion).toBeUndefined();
    expect((await org.admin.client.get(`${specsUrl(org.id)}/slow/versions/latest`)).status).toBe(404);
  });

  it('keeps the last good version when a new document is invalid or unreachable', async () => {
    const org = await h.org();
    const path = `/breaking-${fresh()}/openapi.json`;
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
    const path = `/bomb-${fresh()}/openapi.yaml`;
    served.set(path, { body: bomb, type: 'application/yaml' });
    await org.admin.client.post(specsUrl(org.id), { slug: 'bomb-url', source: { url: sourceUrl(path) } });
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
