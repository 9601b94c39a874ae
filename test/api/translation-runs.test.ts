/**
 * runTranslation: a translation's source space translated into each target language's space by the
 * `translation.run` job, through the configured model (a stand-in on loopback), as a change
 * request merged; 409 without a model, a source or targets; who may run it; a run whose model
 * fails; a job stopped mid-run and finished by another worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { startTranslator, type Translator } from '../helpers/translator.js';

let database: FreshDatabase;
let model: Translator;
/** With a job worker and the model configured. */
let h: Harness;
/** The same database, no worker, no model. */
let noModel: Harness;

const workerOptions = () => ({
  ownDatabase: database.url,
  jobConcurrency: 1,
  jobPollMs: 50,
  jobLeaseMs: 5_000,
  env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'stand-in', AI_TIMEOUT_MS: '5000' },
});

beforeAll(async () => {
  model = await startTranslator();
  database = await freshDatabase('translation-runs');
  h = await createHarness(workerOptions());
  noModel = await createHarness({ ownDatabase: database.url });
});
afterAll(async () => {
  await noModel?.close();
  await h?.close();
  await model?.close();
  await database?.drop();
});

const translationsUrl = (orgId: string) => `/v1/orgs/${orgId}/translations`;

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A space with a page, a subpage linking to it, and a reusable content; returns the page ids. */
async function sourceSpace(harness: Harness): Promise<SpaceWorld & { welcome: string; install: string }> {
  const ctx = await harness.space('Docs');
  const cr = await newChangeRequest(ctx);
  const res = await batch(
    ctx,
    cr.id,
    [
      { operation: 'insert_page', ref: 'welcome', title: 'Welcome', document: { markdown: 'Hello world.' } },
      {
        operation: 'insert_page',
        into: 'welcome',
        title: 'Install Guide',
        document: { markdown: 'Install it, then read [Welcome](./welcome.md).\n\n```sh\nInstall --now\n```' },
      },
      { operation: 'insert_reusable_content', title: 'Support', document: { markdown: 'Ask the world.' } },
    ],
    '?compat=false',
  );
  expect(res.status).toBe(200);
  expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.id}/merge`)).status).toBe(200);
  const [welcome, install] = res.body.changes
    .filter((c: { page?: { id: string } }) => c.page)
    .map((c: { page: { id: string } }) => c.page.id);
  return { ...ctx, welcome, install };
}

async function newTranslation(ctx: SpaceWorld, languages = ['fr', 'de']) {
  const res = await ctx.admin.client.post(translationsUrl(ctx.orgId), {
    title: 'Docs',
    languages,
    source: { space: ctx.spaceId, language: 'en' },
  });
  expect(res.status).toBe(201);
  return `${translationsUrl(ctx.orgId)}/${res.body.id}`;
}

async function completed(client: SpaceWorld['admin']['client'], url: string, runs: number) {
  return until(`run ${runs} of ${url}`, async () => {
    const res = await client.get(url);
    return res.body.status === 'completed' && res.body.stats?.runs === runs ? res.body : undefined;
  });
}

describe('runTranslation', () => {
  it('translates the source into one space per language through a merged change request (204, then completed)', async () => {
    const ctx = await sourceSpace(h);
    const url = await newTranslation(ctx);
    const run = await ctx.admin.client.post(`${url}/run`);
    expect([run.status, run.body]).toEqual([204, '']);
    const done = await completed(ctx.admin.client, url, 1);
    expect(done).toMatchObject({ status: 'completed', source: { space: ctx.spaceId, language: 'en' } });
    expect(done.error).toBeUndefined();
    expect(done.results.map((r: { language: string }) => r.language)).toEqual(['de', 'fr']);
    expect(done.stats).toMatchObject({ runs: 1, latestPages: 2, totalPages: 2 });
    expect(done.stats.latestWords).toBeGreaterThan(10);

    const fr = done.results.find((r: { language: string }) => r.language === 'fr');
    const space = await ctx.admin.client.get(`/v1/spaces/${fr.space}`);
    expect(space.body).toMatchObject({ title: 'Docs (fr)', language: 'fr', revision: fr.revision });
    const pages = (await ctx.admin.client.get(`/v1/spaces/${fr.space}/content/pages`)).body.pages;
    // Same ids and slugs (links between pages hold), titles translated.
    expect(pages.map((p: { id: string; title: string; slug: string }) => [p.id, p.title, p.slug])).toEqual([
      [ctx.welcome, 'Bienvenue', 'welcome'],
    ]);
    expect(pages[0].pages.map((p: { id: string; title: string }) => [p.id, p.title])).toEqual([
      [ctx.install, 'Installer Guide'],
    ]);
    const body = await ctx.admin.client.get(`/v1/spaces/${fr.space}/content/page/${ctx.install}?format=markdown`);
    expect(body.body.markdown).toContain(`Installer it, then read [Bienvenue](/pages/${ctx.welcome})`);
    const de = done.results.find((r: { language: string }) => r.language === 'de');
    const welcomeDe = await ctx.admin.client.get(`/v1/spaces/${de.space}/content/page/${ctx.welcome}?format=markdown`);
    expect(welcomeDe.body).toMatchObject({ title: 'Willkommen' });
    expect(welcomeDe.body.markdown).toContain('Hallo Welt.');
    const merged = await ctx.admin.client.get(`/v1/spaces/${fr.space}/change-requests?status=merged`);
    expect(merged.body.items.map((c: { subject: string }) => c.subject)).toEqual(['Translation "Docs" into fr']);

    const started = await auditEvents(ctx.admin.client, ctx.orgId, 'translation.run_started');
    expect(started.map((e) => e.actor.id)).toEqual([ctx.admin.user.id]);
    const ended = await auditEvents(ctx.admin.client, ctx.orgId, 'translation.run_completed');
    expect(ended.map((e) => e.actor.type)).toEqual(['system']);

    // A second run writes to the same spaces.
    expect((await ctx.admin.client.post(`${url}/run`)).status).toBe(204);
    const again = await completed(ctx.admin.client, url, 2);
    expect(again.results.map((r: { space: string }) => r.space).sort()).toEqual([de.space, fr.space].sort());
    expect(again.stats.totalWords).toBe(2 * done.stats.latestWords);
  });

  it('answers 409 without a model, a source or targets, and while a run is queued', async () => {
    const ctx = await sourceSpace(h);
    const url = await newTranslation(ctx);
    const unconfigured = await new Client(noModel.app, ctx.admin.token).post(`${url}/run`);
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.error.message).toContain('no AI model is configured');

    const bare = await ctx.admin.client.post(translationsUrl(ctx.orgId), { title: 'Bare', languages: ['fr'] });
    const noSource = await ctx.admin.client.post(`${translationsUrl(ctx.orgId)}/${bare.body.id}/run`);
    expect([noSource.status, noSource.body.error.message]).toEqual([409, expect.stringContaining('no source')]);
    const empty = await ctx.admin.client.post(translationsUrl(ctx.orgId), {
      title: 'Empty',
      source: { space: ctx.spaceId, language: 'en' },
    });
    const noTargets = await ctx.admin.client.post(`${translationsUrl(ctx.orgId)}/${empty.body.id}/run`);
    expect([noTargets.status, noTargets.body.error.message]).toEqual([409, expect.stringContaining('no target')]);

    // The model holds the first run: a second request finds it running.
    model.hangOn = 'Hello';
    try {
      expect((await ctx.admin.client.post(`${url}/run`)).status).toBe(204);
      const twice = await ctx.admin.client.post(`${url}/run`);
      expect([twice.status, twice.body.error.message]).toEqual([
        409,
        expect.stringContaining('already queued or running'),
      ]);
    } finally {
      model.release();
    }
    await completed(ctx.admin.client, url, 1);
  });

  it('is for members who edit translation settings: 404 outside, 403 below create or without the scope', async () => {
    const ctx = await sourceSpace(h);
    const url = await newTranslation(ctx);
    const outsider = await h.user();
    expect((await outsider.client.post(`${url}/run`)).status).toBe(404);
    const guest = await h.member(ctx.orgId, null);
    expect((await guest.client.post(`${url}/run`)).status).toBe(404);
    const editor = await h.member(ctx.orgId, 'edit');
    const refused = await editor.client.post(`${url}/run`);
    expect(refused.status).toBe(403);
    const readOnly = await h.member(ctx.orgId, 'admin', { scopes: ['organization:read'] });
    expect((await readOnly.client.post(`${url}/run`)).status).toBe(403);
    expect((await ctx.admin.client.post(`${translationsUrl(ctx.orgId)}/nope/run`)).status).toBe(404);
    expect((await h.anonymous.post(`${url}/run`)).status).toBe(401);
    // Nothing was queued by the refusals.
    expect((await ctx.admin.client.get(url)).body.status).toBeUndefined();
  });

  it('checks the source: a space of the organization the caller reads, in a language that is not a target (400)', async () => {
    const ctx = await sourceSpace(h);
    const elsewhere = await h.space('Other');
    const create = (body: object) => ctx.admin.client.post(translationsUrl(ctx.orgId), { title: 'T', ...body });
    const foreign = await create({ source: { space: elsewhere.spaceId, language: 'en' } });
    expect([foreign.status, foreign.body.error.message]).toEqual([400, expect.stringContaining('body/source/space')]);
    expect((await create({ source: { space: 'nope', language: 'en' } })).status).toBe(400);
    const same = await create({ languages: ['fr'], source: { space: ctx.spaceId, language: 'fr' } });
    expect([same.status, same.body.error.message]).toEqual([400, expect.stringContaining('body/languages')]);
    expect((await create({ source: { space: ctx.spaceId, language: 'klingon' } })).status).toBe(400);
    expect((await create({ source: { space: ctx.spaceId, language: 'en', extra: 1 } })).status).toBe(400);
    const ok = await create({ languages: ['fr'], source: { space: ctx.spaceId, language: 'en' } });
    expect(ok.status).toBe(201);
    const url = `${translationsUrl(ctx.orgId)}/${ok.body.id}`;
    // Kept when absent from an update, checked against new languages, removed with null.
    const clash = await ctx.admin.client.put(url, { title: 'T', languages: ['en'] });
    expect(clash.status).toBe(400);
    expect((await ctx.admin.client.put(url, { title: 'T2' })).body.source).toEqual({
      space: ctx.spaceId,
      language: 'en',
    });
    expect((await ctx.admin.client.put(url, { title: 'T2', source: null })).body.source).toBeUndefined();
  });

  it('ends a run whose model fails as completed with its error, the results unchanged', async () => {
    const ctx = await sourceSpace(h);
    const url = await newTranslation(ctx, ['fr']);
    model.failWith = 503;
    try {
      expect((await ctx.admin.client.post(`${url}/run`)).status).toBe(204);
      const failed = await completed(ctx.admin.client, url, 1);
      expect(failed.error).toMatch(/^fr: .*503/);
      expect(failed.results).toEqual([]);
    } finally {
      model.failWith = null;
    }
    expect((await ctx.admin.client.post(`${url}/run`)).status).toBe(204);
    const fixed = await completed(ctx.admin.client, url, 2);
    expect(fixed.error).toBeUndefined();
    expect(fixed.results).toHaveLength(1);
  });
});

describe('a run stopped mid-run', () => {
  it('is given back and finished by another worker, once', async () => {
    const own = await freshDatabase('translation-crash');
    const options = { ...workerOptions(), ownDatabase: own.url };
    const first = await createHarness(options);
    let firstOpen = true;
    let second: Harness | undefined;
    try {
      const ctx = await sourceSpace(first);
      const url = await newTranslation(ctx, ['fr']);
      model.hangOn = 'Install';
      const seen = model.requests.length;
      const hung = new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (model.requests.slice(seen).some((r) => r.markdown.includes('Install') && r.to === 'fr')) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      expect((await ctx.admin.client.post(`${url}/run`)).status).toBe(204);
      await hung;
      expect((await ctx.admin.client.get(url)).body.status).toBe('running');
      // The process stops: its worker aborts the job and gives it back.
      await first.close();
      firstOpen = false;
      model.release();
      second = await createHarness(options);
      const client = new Client(second.app, ctx.admin.token);
      const done = await completed(client, url, 1);
      expect(done.error).toBeUndefined();
      const target = done.results[0].space;
      const pages = (await client.get(`/v1/spaces/${target}/content/pages`)).body.pages;
      expect(pages[0].pages[0].title).toBe('Installer Guide');
      const open = await client.get(`/v1/spaces/${target}/change-requests?status=open`);
      expect(open.body.items).toEqual([]);
      const jobs = await second.db
        .selectFrom('jobs')
        .select(['state', 'attempts'])
        .where('kind', '=', 'translation.run')
        .execute();
      expect(jobs).toEqual([{ state: 'done', attempts: 1 }]);
    } finally {
      model.release();
      if (firstOpen) await first.close();
      await second?.close();
      await own.drop();
    }
  });
});
