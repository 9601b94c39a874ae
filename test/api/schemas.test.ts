/**
 * Route schemas compile on each route's first use (start-up time and idle memory, http/validation.ts):
 * every schema is still checked here, all at once, so that a broken one fails this test rather than
 * its route's first request; first requests validate and serialize as before; and the OpenAPI
 * document does not depend on when (or whether) the schemas were compiled.
 */
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { schemaCompilers } from '../../src/http/validation.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
const apps: App[] = [];
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await h.close();
});

/** A new app on the harness's database, its schemas compiled in `mode`; `routes` collects its routes. */
async function newApp(mode: 'lazy' | 'eager', routes: RouteOptions[] = []): Promise<App> {
  const app = await buildApp({
    config: h.app.config,
    db: h.db,
    migrate: false,
    logger: false,
    compileSchemas: mode,
    onRoute: (route) => routes.push(route),
  });
  apps.push(app);
  return app;
}

describe('route schemas', () => {
  it("every route's request and response schemas compile", async () => {
    const routes: RouteOptions[] = [];
    const app = await newApp('eager', routes);
    // Fastify compiles each route's validators and serializers here, and fails on any broken one.
    await app.ready();
    const withSchemas = routes.filter((r) => r.schema?.response || r.schema?.params || r.schema?.body);
    expect(withSchemas.length).toBeGreaterThan(200);
  });

  it('a broken schema fails the start-up check, and only its first request when compiled on first use', async () => {
    const withCompilers = (mode: 'lazy' | 'eager') =>
      Fastify({ schemaController: { compilersFactory: schemaCompilers(mode) } });
    const broken = { schema: { querystring: { type: 'object', properties: { n: { type: 'nonsense' } } } } };
    const eager = withCompilers('eager');
    eager.get('/broken', broken, async () => ({}));
    await expect(eager.ready()).rejects.toThrow(/Failed building the validation schema for GET: \/broken/);

    const brokenResponse = { schema: { response: { 200: { $ref: 'NoSuchSchema#' } } } };
    const eagerResponse = withCompilers('eager');
    eagerResponse.get('/broken', brokenResponse, async () => ({}));
    await expect(eagerResponse.ready()).rejects.toThrow(/Failed building the serialization schema for GET: \/broken/);

    const lazy = withCompilers('lazy');
    lazy.get('/broken', broken, async () => ({}));
    await lazy.ready();
    expect((await lazy.inject({ url: '/broken?n=1' })).statusCode).toBe(500);
    await lazy.close();
  });

  it('a first request validates (the error names the field) and serializes as any later one', async () => {
    const org = await h.org();
    const app = await newApp('lazy');
    await app.ready();
    const client = new Client(app, org.admin.token);
    const bad = await client.get(`/v1/orgs/${org.id}/members?limit=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('querystring/limit must be integer');
    expect((await client.get(`/v1/orgs/${org.id}/members?limit=abc`)).body).toEqual(bad.body);
    // A body (strict validation, no coercion) on its first request.
    const badBody = await client.patch(`/v1/orgs/${org.id}`, { sso: 'true' });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.message).toBe('body/sso must be boolean');

    const first = await client.get(`/v1/orgs/${org.id}`);
    expect(first.status).toBe(200);
    expect(first.body.id).toBe(org.id);
    expect((await client.get(`/v1/orgs/${org.id}`)).body).toEqual(first.body);
  });

  it('the OpenAPI document is the same whether the schemas were compiled before it or not', async () => {
    const lazy = await newApp('lazy');
    await lazy.ready();
    // Generated before any route of this app compiled its schemas.
    const beforeCompiling = (await lazy.inject({ url: '/v1/openapi.json' })).body;
    const eager = await newApp('eager');
    await eager.ready();
    const afterCompilingAll = (await eager.inject({ url: '/v1/openapi.json' })).body;
    expect(afterCompilingAll.length).toBeGreaterThan(100_000);
    expect(afterCompilingAll).toBe(beforeCompiling);
  });
});
