/**
 * Webhook delivery end to end, against a real receiver on loopback that verifies every signature
 * with the official `standardwebhooks` library: retries until success, failure after the last
 * retry, deactivation, and a delivering process killed mid-attempt (kill -9) whose delivery
 * another process completes. Each test runs on a database of its own (a SQLite file, or a new
 * PostgreSQL database), since job workers of other test files would otherwise take its jobs.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { freshDatabase } from '../helpers/fresh-db.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { serveProcess } from '../helpers/server.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function ownDatabase(label: string): Promise<string> {
  const database = await freshDatabase(label);
  cleanups.push(() => database.drop());
  return database.url;
}

async function harnessOn(database: string, env: Record<string, string>, jobs = true): Promise<Harness> {
  const h = await createHarness({
    ownDatabase: database,
    fetchAllowPrivate: true,
    jobPollMs: 50,
    jobLeaseMs: 2_000,
    jobConcurrency: jobs ? 2 : 0,
    env,
  });
  cleanups.push(() => h.close());
  return h;
}

/** A harness whose workers poll once a minute: a delivery that arrives sooner was woken, not polled for. */
async function slowPollHarness(label: string, jobConcurrency: number): Promise<Harness> {
  const h = await createHarness({
    ownDatabase: await ownDatabase(label),
    fetchAllowPrivate: true,
    jobPollMs: 60_000,
    jobConcurrency,
  });
  cleanups.push(() => h.close());
  return h;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function subscribe(admin: TestUser, org: string, r: Receiver, events: string[]) {
  const res = await admin.client.post(`/v1/orgs/${org}/webhooks`, { url: r.url, events });
  expect(res.status).toBe(201);
  r.secret = res.body.secret;
  return res.body as { id: string; secret: string };
}

async function deliveries(admin: TestUser, org: string, webhookId: string, query = '') {
  const res = await admin.client.get(`/v1/orgs/${org}/webhooks/${webhookId}/deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.items as any[];
}

describe('webhook delivery', () => {
  it('signs every attempt, retries after failures and succeeds on the third, with one webhook-id', async () => {
    const h = await harnessOn(await ownDatabase('retries'), { WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,5s' });
    const r = await receiver();
    r.respond = (_request, index) => (index < 2 ? 500 : 204);
    const { id: org, admin } = await h.org();
    const hook = await subscribe(admin, org, r, ['webhook.updated']);
    expect((await admin.client.patch(`/v1/orgs/${org}/webhooks/${hook.id}`, { description: 'now' })).status).toBe(200);

    const received = await r.waitFor(3);
    const done = await until('the delivery to succeed', async () => {
      const [d] = await deliveries(admin, org, hook.id);
      return d?.status === 'succeeded' && d;
    });
    expect(done.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 500, 204]);
    expect(done.attempts[0].error).toMatch(/HTTP 500/);
    expect(done.attempts[2].error).toBeNull();
    expect(done.nextAttemptAt).toBeNull();
    // Retries wait (at least 80 % of the 100 ms, then of the 200 ms, by the jitter's bounds).
    const at = done.attempts.map((a: { at: string }) => Date.parse(a.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(80);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(160);

    expect(received).toHaveLength(3);
    const ids = new Set(received.map((x) => x.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of received) {
      expect(request.verified, 'signature verifies').toBeTruthy();
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(request.headers['content-type']).toBe('application/json');
    }
    const event = received[0]?.verified as any;
    expect(event).toMatchObject({
      object: 'event',
      id: done.event.id,
      type: 'webhook.updated',
      organization: org,
      actor: { type: 'user', id: admin.user.id },
      source: 'api',
      target: { object: 'webhook', id: hook.id },
      data: { object: { object: 'webhook', id: hook.id, description: 'now' }, previous: { description: null } },
    });
    expect([...ids][0]).toBe(event.id);
    // The library refuses the same request checked with another secret.
    const other = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
    expect(() => other.verify(received[0]?.body ?? '', received[0]?.headers as Record<string, string>)).toThrow();
  });

  it('marks a delivery failed after the last retry; redeliver sends it again; filters by status', async () => {
    const h = await harnessOn(await ownDatabase('failed'), { WEBHOOK_RETRY_SCHEDULE: '50ms,50ms' });
    const r = await receiver();
    r.respond = () => 503;
    const { id: org, admin } = await h.org();
    const hook = await subscribe(admin, org, r, ['webhook.ping']);
    await admin.client.post(`/v1/orgs/${org}/webhooks/${hook.id}/ping`);
    const failed = await until('the delivery to fail', async () => {
      const [d] = await deliveries(admin, org, hook.id, '?status=failed');
      return d;
    });
    expect(failed.attempts).toHaveLength(3);
    expect(failed.nextAttemptAt).toBeNull();
    expect(await deliveries(admin, org, hook.id, '?status=pending')).toEqual([]);
    expect((await admin.client.get(`/v1/orgs/${org}/webhooks/${hook.id}`)).body.active).toBe(true);

    r.respond = () => 200;
    const again = await admin.client.post(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`);
    expect(again.status).toBe(202);
    const ok = await until('the redelivery', async () => {
      const [d] = await deliveries(admin, org, hook.id, '?status=succeeded');
      return d;
    });
    expect(ok.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([503, 503, 503, 200]);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
  });

  it('does not follow redirects, and deactivates a webhook whose deliveries keep failing', async () => {
    // 0.000002 days is about 170 ms: the second failed attempt comes later than that.
    const h = await harnessOn(await ownDatabase('deactivate'), {
      WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms',
      WEBHOOK_DEACTIVATE_AFTER_DAYS: '0.000002',
    });
    const r = await receiver();
    const target = await receiver();
    r.respond = () => ({ status: 302, headers: { location: target.url } });
    const { id: org, admin } = await h.org();
    const hook = await subscribe(admin, org, r, ['webhook.ping']);
    await admin.client.post(`/v1/orgs/${org}/webhooks/${hook.id}/ping`);
    const off = await until('the webhook to be deactivated', async () => {
      const w = (await admin.client.get(`/v1/orgs/${org}/webhooks/${hook.id}`)).body;
      return !w.active && w;
    });
    expect(off.deactivatedReason).toMatch(/every delivery failed since .* \(last: .*HTTP 302/);
    const [d] = await until('the pending delivery to end', async () => {
      const list = await deliveries(admin, org, hook.id);
      return list[0]?.status === 'failed' && list;
    });
    expect(d.attempts.length).toBeGreaterThanOrEqual(2);
    expect(d.attempts.every((a: { responseStatus: number }) => a.responseStatus === 302)).toBe(true);
    expect(target.received).toEqual([]);

    // Turned back on by hand, it starts with a clean record.
    const on = await admin.client.patch(`/v1/orgs/${org}/webhooks/${hook.id}`, { active: true });
    expect(on.body).toMatchObject({ active: true, deactivatedReason: null });
  });

  it('delivers the events of one webhook in the order they happened', async () => {
    const h = await harnessOn(await ownDatabase('order'), { WEBHOOK_RETRY_SCHEDULE: '50ms' });
    const r = await receiver();
    const { id: org, admin } = await h.org();
    const hook = await subscribe(admin, org, r, ['webhook.updated']);
    for (let i = 0; i < 6; i++) {
      await admin.client.patch(`/v1/orgs/${org}/webhooks/${hook.id}`, { description: `v${i}` });
    }
    const received = await r.waitFor(6);
    expect(received.map((x) => (x.verified as any).data.object.description)).toEqual([
      'v0',
      'v1',
      'v2',
      'v3',
      'v4',
      'v5',
    ]);
  });
});

describe('delivery right after the change', () => {
  it('wakes the worker when the change commits: the delivery arrives long before the next poll', async () => {
    const h = await slowPollHarness('prompt', 1);
    const r = await receiver();
    const { id: org, admin } = await h.org();
    await subscribe(admin, org, r, ['space.created']);
    const started = Date.now();
    expect((await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Prompt' })).status).toBe(201);
    const [received] = (await r.waitFor(1, 10_000)) as [any];
    expect(received.verified).toMatchObject({ type: 'space.created', data: { object: { title: 'Prompt' } } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a burst of changes', () => {
  it('delivers them in order without waiting for polls: a delivery held back for the one before it is woken when due', async () => {
    const h = await slowPollHarness('burst', 2);
    const r = await receiver();
    const { id: org, admin } = await h.org();
    const hook = await subscribe(admin, org, r, ['webhook.updated']);
    const started = Date.now();
    for (let i = 0; i < 8; i++) {
      expect((await admin.client.patch(`/v1/orgs/${org}/webhooks/${hook.id}`, { description: `b${i}` })).status).toBe(
        200,
      );
    }
    const received = await r.waitFor(8, 20_000);
    expect(received.map((x) => (x.verified as any).data.object.description)).toEqual(
      Array.from({ length: 8 }, (_, i) => `b${i}`),
    );
    // Paced by the 60 s poll, the eighth would come minutes later; woken when due, within seconds.
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});

describe('a delivering process killed mid-attempt', () => {
  it('leaves the delivery to another process, which completes it with the same webhook-id', async () => {
    const database = await ownDatabase('crash');
    // This process serves the API only; the child process is the one delivering.
    const h = await harnessOn(database, {}, false);
    const r = await receiver();
    const { id: org, admin } = await h.org();
    const hook = await subscribe(admin, org, r, ['webhook.ping']);

    const server = await serveProcess(database, {
      FETCH_ALLOW_PRIVATE: 'true',
      JOB_CONCURRENCY: '1',
      JOB_POLL_MS: '50',
      JOB_LEASE_MS: '1500',
    });
    const { child } = server;
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    // The first attempt arrives from the child: kill it while the request is open (no answer yet).
    r.respond = (_request, index) => {
      if (index === 0) {
        child.kill('SIGKILL');
        return null;
      }
      return 200;
    };
    await admin.client.post(`/v1/orgs/${org}/webhooks/${hook.id}/ping`);
    await r.waitFor(1, 120_000);
    expect(await exited).toBe('SIGKILL');
    const [before] = await deliveries(admin, org, hook.id);
    expect(before.status).toBe('pending');
    expect(before.attempts).toEqual([]);

    // Another process takes the job over once the dead one's lease has run out.
    await harnessOn(database, {}, true);
    const received = await r.waitFor(2);
    const done = await until('the delivery to succeed', async () => {
      const [d] = await deliveries(admin, org, hook.id);
      return d?.status === 'succeeded' && d;
    });
    expect(done.attempts).toHaveLength(1);
    expect(done.attempts[0].responseStatus).toBe(200);
    expect(received[0]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
    expect(received.every((x) => x.verified)).toBe(true);
  });
});
