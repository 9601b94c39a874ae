/**
 * The events the `openapi.process` job records (as the system), delivered to a real receiver:
 * `openapi.version.created` when a source yields new content, `openapi.processing.failed` when it
 * cannot be processed. On a database of its own, since the job worker would otherwise take other
 * test files' jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

let database: FreshDatabase;
let h: Harness;
let r: Receiver;
beforeAll(async () => {
  database = await freshDatabase('openapi-events');
  h = await createHarness({
    ownDatabase: database.url,
    fetchAllowPrivate: true,
    jobConcurrency: 2,
    jobPollMs: 50,
  });
  r = await startReceiver();
});
afterAll(async () => {
  await h?.close();
  await r?.close();
  await database?.drop();
});

const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: { '/pets': { get: { responses: { 200: { description: 'the pets' } } } } },
};

describe('OpenAPI events', () => {
  it('delivers openapi.version.created and openapi.processing.failed with the objects as presented', async () => {
    const { id: org, admin } = await h.org();
    const hook = await admin.client.post(`/v1/orgs/${org}/webhooks`, {
      url: r.url,
      // The job's two events (the member's own changes of the source are `openapi.spec.*`).
      events: ['openapi.version.created', 'openapi.processing.failed'],
    });
    expect(hook.status).toBe(201);
    r.secret = hook.body.secret;
    const spec = `/v1/orgs/${org}/openapi/pets`;

    expect((await admin.client.put(spec, { source: { text: JSON.stringify(PETSTORE) } })).status).toBe(201);
    const [created] = (await r.waitFor(1, 20_000)) as [any];
    const event = created.verified as any;
    expect(event).toMatchObject({
      type: 'openapi.version.created',
      organization: org,
      actor: { type: 'system' },
      source: 'system',
    });
    const latest = await admin.client.get(`${spec}/versions/latest`);
    expect(latest.status).toBe(200);
    expect(event.target).toEqual({ object: 'openapi-spec-version', id: latest.body.id });
    expect(event.data).toEqual({ object: latest.body });

    // The same content again is no new version; a broken document is a failure, recorded once.
    expect((await admin.client.put(spec, { source: { text: JSON.stringify(PETSTORE) } })).status).toBe(200);
    expect((await admin.client.put(spec, { source: { text: '{"openapi": "3.0.3", "paths": 7' } })).status).toBe(200);
    const received = await r.waitFor(2, 20_000);
    const failed = received[1]?.verified as any;
    expect(failed).toMatchObject({ type: 'openapi.processing.failed', target: { object: 'openapi-spec' } });
    const current = await admin.client.get(spec);
    expect(current.body.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.target.id).toBe(current.body.id);
    expect(failed.data).toEqual({ object: current.body });

    const audit = await admin.client.get(`/v1/orgs/${org}/audit-events?action=openapi.processing.failed`);
    expect(audit.body.items.map((e: any) => e.id)).toEqual([failed.id]);
    const versions = await admin.client.get(`/v1/orgs/${org}/audit-events?action=openapi.version.created`);
    expect(versions.body.items.map((e: any) => e.id)).toEqual([event.id]);
    expect(r.received).toHaveLength(2);
  });
});
