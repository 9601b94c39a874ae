import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/ai/extractive.js';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { type ModelServer, parseSse, publish, startModelServer } from '../helpers/ask.js';

let h: Harness;
let model: ModelServer;
let withModel: Harness;
beforeAll(async () => {
  h = await createHarness();
  model = await startModelServer();
  // The deadline leaves room for a loaded machine (the streamed answer takes ~200 ms); the test of
  // the deadline waits for it once.
  withModel = await createHarness({
    env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_API_KEY: 'sk-test', AI_TIMEOUT_MS: '2000' },
    sseHeartbeatMs: 30,
  });
});
afterAll(async () => {
  await h?.close();
  await withModel?.close();
  await model?.close();
});

const HANDBOOK = [
  {
    title: 'Installation',
    markdown:
      'Bindery runs on Node 20.\n\n## Install the CLI\n\nRun `npm install -g bindery-cli` to install the command line tool. ' +
      'The CLI needs Node 20 or later.\n\n## Configure the database\n\nSet DATABASE_URL to a PostgreSQL URL or a SQLite ' +
      'file path. The default database is SQLite.',
  },
  {
    title: 'Vacation policy',
    markdown:
      'Employees get 25 vacation days per year.\n\n## Requesting leave\n\nSubmit vacation requests to your manager two weeks in advance.',
  },
];
const SECRET = [
  {
    title: 'Project Zephyr',
    markdown:
      '## Launch window\n\nThe orbital launch window for Project Zephyr opens on March 3rd. The payload is a weather satellite.',
  },
  {
    title: 'Zephyr tooling',
    markdown:
      '## Install the CLI\n\nZephyr engineers install the CLI from the internal mirror at zephyr-mirror.internal.',
  },
];

interface World {
  orgId: string;
  admin: TestUser;
  reader: TestUser;
  handbook: string;
  secret: string;
  pages: Record<string, string>;
  ask: string;
}

/** An organization with a readable space (Handbook) and one only its admin can read (Secret). */
async function world(harness: Harness): Promise<World> {
  const org = await harness.org();
  const c = org.admin.client;
  const handbook = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Handbook' })).body.id as string;
  const secret = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Secret' })).body.id as string;
  expect((await c.patch(`/v1/spaces/${secret}`, { defaultLevel: null })).status).toBe(200);
  const pages = { ...(await publish(c, handbook, HANDBOOK)), ...(await publish(c, secret, SECRET)) };
  const reader = await harness.member(org.id, 'read');
  return { orgId: org.id, admin: org.admin, reader, handbook, secret, pages, ask: `/v1/orgs/${org.id}/ask` };
}

describe('AI answers (extractive, no model configured)', () => {
  let w: World;
  beforeAll(async () => {
    w = await world(h);
  });

  it('answers from the pages the caller can read, citing page, revision, space and sections', async () => {
    const res = await w.reader.client.post(w.ask, { query: 'How do I install the CLI?' });
    expect(res.status).toBe(200);
    const { answer } = res.body;
    expect(answer.answer.markdown).toContain('npm install -g bindery-cli');
    expect(answer.answer.markdown).toContain('Installation › Install the CLI');
    expect(answer.answer.markdown).not.toContain('zephyr');
    expect(answer.sources.length).toBeGreaterThan(0);
    for (const source of answer.sources) expect(source.space).toBe(w.handbook);
    const space = await w.reader.client.get(`/v1/spaces/${w.handbook}`);
    expect(answer.sources[0]).toMatchObject({
      type: 'page',
      page: w.pages.Installation,
      revision: space.body.revision,
      space: w.handbook,
      sections: ['install-the-cli'],
    });
    expect(answer.sources[0].reason).toContain('Install the CLI');
    expect(answer.details).toBeUndefined();
    expect(Array.isArray(answer.followupQuestions)).toBe(true);

    // The admin reads both spaces: the same question finds the Zephyr page too.
    const admin = await w.admin.client.post(w.ask, { query: 'How do I install the CLI?' });
    expect(admin.body.answer.sources.map((s: { space: string }) => s.space)).toContain(w.secret);
  });

  it('a question about a space the caller cannot read gets no answer and no sources', async () => {
    const res = await w.reader.client.post(`${w.ask}?details=true`, {
      query: 'When does the Zephyr orbital launch window open?',
    });
    expect(res.status).toBe(200);
    expect(res.body.answer).toMatchObject({ answer: { markdown: NO_ANSWER }, sources: [], followupQuestions: [] });
    expect(res.body.answer.details).toMatchObject({
      terms: ['zephyr', 'orbital', 'launch', 'window', 'open'],
      spaces: [w.handbook],
      answeredBy: 'none',
    });
    const admin = await w.admin.client.post(w.ask, { query: 'When does the Zephyr orbital launch window open?' });
    expect(admin.body.answer.answer.markdown).toContain('March 3rd');
    expect(admin.body.answer.sources[0]).toMatchObject({ page: w.pages['Project Zephyr'], space: w.secret });
  });

  it('details tell how the question was read; format=document gives the structured document', async () => {
    const res = await w.reader.client.post(`${w.ask}?details=true&format=document`, {
      query: 'What is the default database?',
    });
    expect(res.status).toBe(200);
    const { answer } = res.body;
    expect(answer.answer.markdown).toBeUndefined();
    expect(answer.answer.document).toMatchObject({ object: 'document' });
    expect(JSON.stringify(answer.answer.document)).toContain('SQLite');
    expect(answer.details).toMatchObject({
      query: 'What is the default database?',
      terms: ['default', 'database'],
      contextTerms: [],
      spaces: [w.handbook],
      answeredBy: 'extractive',
    });
    expect(answer.details.passagesConsidered).toBeGreaterThan(0);
    expect(answer.details.passages[0]).toMatchObject({
      page: w.pages.Installation,
      section: 'configure-the-database',
      used: true,
    });
  });

  it('uses previousQueries as context; at most 10', async () => {
    const previousQueries = ['How many vacation days do employees get?'];
    const res = await w.reader.client.post(`${w.ask}?details=true`, {
      query: 'Tell me more about that',
      previousQueries,
    });
    expect(res.status).toBe(200);
    expect(res.body.answer.details.contextTerms).toEqual(['many', 'vacation', 'days', 'employees']);
    expect(res.body.answer.sources[0].page).toBe(w.pages['Vacation policy']);
    const ten = Array.from({ length: 10 }, (_, i) => `question ${i}`);
    expect((await w.reader.client.post(w.ask, { query: 'install', previousQueries: ten })).status).toBe(200);
    const eleven = await w.reader.client.post(w.ask, { query: 'install', previousQueries: [...ten, 'one more'] });
    expect(eleven.status).toBe(400);
    expect(eleven.body.error.message).toContain('previousQueries');
    expect((await w.reader.client.post(w.ask, { query: '' })).status).toBe(400);
    expect((await w.reader.client.post(w.ask, {})).status).toBe(400);
    expect((await w.reader.client.post(w.ask, { query: 'x', other: 1 })).status).toBe(400);
  });

  it('the streamed answer is server-sent events ending on the plain answer', async () => {
    const query = 'How do I install the CLI?';
    const plain = await w.reader.client.post(`${w.ask}?details=true`, { query });
    const res = await w.reader.client.get(`${w.ask}/stream?details=true&query=${encodeURIComponent(query)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['cache-control']).toContain('no-cache');
    const events = parseSse(res.body);
    const answers = events.filter((e) => e.event === 'message');
    expect(answers.length).toBeGreaterThan(0);
    for (const e of answers) expect(e.data.type).toBe('answer');
    expect(answers.at(-1)?.data.answer).toEqual(plain.body.answer);
    expect(events.at(-1)?.event).toBe('done');
    expect(res.body.endsWith('\n\n')).toBe(true);
  });

  it('recommends questions from readable content, plain and streamed', async () => {
    const res = await w.reader.client.get(`${w.ask}/questions`);
    expect(res.status).toBe(200);
    expect(res.body.questions).toContain('How do I install the CLI?');
    expect(res.body.questions.length).toBeLessThanOrEqual(5);
    expect(JSON.stringify(res.body.questions)).not.toMatch(/zephyr|launch/i);
    const stream = await w.reader.client.get(`${w.ask}/questions/stream`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(stream.body);
    expect(events.filter((e) => e.event === 'message').map((e) => e.data)).toEqual(
      res.body.questions.map((question: string) => ({ question })),
    );
    expect(events.at(-1)?.event).toBe('done');
    const admin = await w.admin.client.get(`${w.ask}/questions`);
    expect(JSON.stringify(admin.body.questions)).toMatch(/launch window/i);
  });

  it('follows the live revision: a merge reindexes, a deleted space stops answering', async () => {
    const org = await h.org();
    const space = (await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Ops' })).body.id as string;
    await publish(org.admin.client, space, [{ title: 'Backups', markdown: 'Backups run nightly at 02:00 UTC.' }]);
    const ask = (query: string) => org.admin.client.post(`/v1/orgs/${org.id}/ask`, { query });
    expect((await ask('When do backups run?')).body.answer.answer.markdown).toContain('nightly');
    const pages = await org.admin.client.get(`/v1/spaces/${space}/content/pages`);
    const cr = await org.admin.client.post(`/v1/spaces/${space}/change-requests`, { subject: 'Edit' });
    await org.admin.client.post(`/v1/spaces/${space}/change-requests/${cr.body.id}/content`, {
      changes: [
        {
          operation: 'update_page',
          page: pages.body.pages[0].id,
          document: { markdown: 'Backups run hourly, and snapshots are kept for thirty days.' },
        },
      ],
    });
    expect((await org.admin.client.post(`/v1/spaces/${space}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const after = (await ask('When do backups run?')).body.answer;
    expect(after.answer.markdown).toContain('hourly');
    expect(after.answer.markdown).not.toContain('nightly');
    expect((await ask('nightly')).body.answer.sources).toEqual([]);
    const rows = await h.db.selectFrom('search_passages').select('body').where('space_id', '=', space).execute();
    expect(rows.map((r) => r.body)).toEqual(['Backups run hourly, and snapshots are kept for thirty days.']);
    expect((await org.admin.client.delete(`/v1/spaces/${space}`)).status).toBe(204);
    expect((await ask('When do backups run?')).body.answer.sources).toEqual([]);
  });

  it('indexes a space whose index is missing before answering from it', async () => {
    await h.db.deleteFrom('search_index_state').where('space_id', '=', w.handbook).execute();
    await h.db.deleteFrom('search_passages').where('space_id', '=', w.handbook).execute();
    const res = await w.reader.client.post(w.ask, { query: 'vacation days' });
    expect(res.body.answer.sources[0].page).toBe(w.pages['Vacation policy']);
  });
});

describe('who may ask', () => {
  it('needs the ai setting (403), the organization:ask scope (403), membership (404)', async () => {
    const w = await world(h);
    const paths = [
      ['POST', w.ask],
      ['GET', `${w.ask}/stream?query=install`],
      ['GET', `${w.ask}/questions`],
      ['GET', `${w.ask}/questions/stream`],
    ] as const;
    const call = (user: TestUser, [method, url]: (typeof paths)[number]) =>
      user.client.request(method, url, method === 'POST' ? { query: 'install' } : undefined);
    for (const p of paths) expect((await call(w.reader, p)).status).toBe(200);

    const outsider = await h.user();
    const guest = await h.member(w.orgId, null);
    const unscoped = await h.member(w.orgId, 'admin', { scopes: ['organization:read', 'space:read'] });
    const scoped = await h.member(w.orgId, 'read', { scopes: ['organization:ask'] });
    for (const p of paths) {
      const o = await call(outsider, p);
      expect(o.status).toBe(404);
      expect(o.headers['content-type']).toMatch(/json/);
      expect((await call(guest, p)).status).toBe(404);
      const u = await call(unscoped, p);
      expect(u.status).toBe(403);
      expect(u.body.error.message).toContain('organization:ask');
      expect((await call(scoped, p)).status).toBe(200);
    }
    expect((await h.anonymous.post(w.ask, { query: 'x' })).status).toBe(401);

    expect((await w.admin.client.patch(`/v1/orgs/${w.orgId}`, { ai: false })).status).toBe(200);
    for (const p of paths) {
      const res = await call(w.reader, p);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.body.error.message).toMatch(/AI answers are turned off/);
    }
    expect((await call(outsider, paths[0])).status).toBe(404);
  });
});

describe('AI answers with a model (OpenAI-compatible, on loopback)', () => {
  let w: World;
  beforeAll(async () => {
    w = await world(withModel);
  });

  it('sends the readable passages as context and relays the streamed completion', async () => {
    model.mode = { kind: 'stream', chunks: ['Install it ', 'with `npm install -g bindery-cli`', '.'], delayMs: 60 };
    model.requests = [];
    const res = await w.reader.client.post(`${w.ask}?details=true`, { query: 'How do I install the CLI?' });
    expect(res.status).toBe(200);
    expect(res.body.answer.answer.markdown).toBe('Install it with `npm install -g bindery-cli`.');
    expect(res.body.answer.details).toMatchObject({ answeredBy: 'model', model: 'test-model' });
    expect(res.body.answer.sources.length).toBeGreaterThan(0);
    for (const s of res.body.answer.sources) expect(s.space).toBe(w.handbook);

    expect(model.requests).toHaveLength(1);
    const request = model.requests[0];
    expect(request).toMatchObject({ model: 'test-model', stream: true, authorization: 'Bearer sk-test' });
    const prompt = JSON.stringify(request.messages);
    expect(prompt).toContain('npm install -g bindery-cli');
    expect(prompt).toContain('How do I install the CLI?');
    expect(prompt).not.toContain('zephyr');
    expect(prompt).not.toContain('Zephyr');

    // The admin's context does hold the Zephyr page.
    await w.admin.client.post(w.ask, { query: 'How do I install the CLI?' });
    expect(JSON.stringify(model.requests[1].messages)).toContain('zephyr-mirror.internal');

    const stream = await w.reader.client.get(
      `${w.ask}/stream?details=true&query=${encodeURIComponent('How do I install the CLI?')}`,
    );
    const answers = parseSse(stream.body).filter((e) => e.event === 'message');
    const texts = answers.map((e) => e.data.answer.answer.markdown as string);
    // The answer grows as the model's chunks arrive (chunks that reach the server together, as on a
    // loaded machine, come out as one message), and ends as the whole answer.
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(texts[0]?.startsWith('Install it ')).toBe(true);
    for (let i = 1; i < texts.length; i++) expect(texts[i]?.startsWith(texts[i - 1] as string)).toBe(true);
    expect(texts.at(-1)).toBe('Install it with `npm install -g bindery-cli`.');
    expect(answers.at(-1)?.data.answer).toEqual(res.body.answer);
  });

  it('passes previousQueries to the model', async () => {
    model.mode = { kind: 'stream', chunks: ['25 days.'] };
    model.requests = [];
    const res = await w.reader.client.post(w.ask, {
      query: 'And how do I request them?',
      previousQueries: ['How many vacation days do employees get?'],
    });
    expect(res.body.answer.answer.markdown).toBe('25 days.');
    expect(JSON.stringify(model.requests[0].messages)).toContain('How many vacation days do employees get?');
  });

  it('falls back to the extractive answer when the model times out or fails', async () => {
    model.mode = { kind: 'hang' };
    const started = Date.now();
    const res = await w.reader.client.post(`${w.ask}?details=true`, { query: 'How do I install the CLI?' });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.body.answer.answer.markdown).toContain('npm install -g bindery-cli');
    expect(res.body.answer.details).toMatchObject({ answeredBy: 'extractive' });
    expect(res.body.answer.details.fallback).toMatch(/2000 ms/);

    model.mode = { kind: 'error', status: 503 };
    const failed = await w.reader.client.post(`${w.ask}?details=true`, { query: 'How do I install the CLI?' });
    expect(failed.body.answer.answer.markdown).toContain('npm install -g bindery-cli');
    expect(failed.body.answer.details.fallback).toMatch(/503/);
  });

  it('does not call the model when nothing readable matches', async () => {
    model.requests = [];
    const res = await w.reader.client.post(w.ask, { query: 'When does the Zephyr orbital launch window open?' });
    expect(res.body.answer).toMatchObject({ answer: { markdown: NO_ANSWER }, sources: [] });
    expect(model.requests).toHaveLength(0);
  });

  it('sends heartbeats while the model is slow', async () => {
    model.mode = { kind: 'stream', chunks: ['Done.'], firstDelayMs: 200 };
    const res = await w.reader.client.get(`${w.ask}/stream?query=install`);
    const events = parseSse(res.body);
    expect(events.some((e) => e.event === 'comment' && e.data === 'heartbeat')).toBe(true);
    expect(events.filter((e) => e.event === 'message').at(-1)?.data.answer.answer.markdown).toBe('Done.');
  });

  it('stops the model request when the client of the stream disconnects', async () => {
    model.mode = { kind: 'stream', chunks: Array.from({ length: 100 }, (_, i) => `token${i} `), delayMs: 30 };
    await withModel.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = withModel.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}${w.ask}/stream?query=${encodeURIComponent('How do I install the CLI?')}`;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, { headers: { authorization: `Bearer ${w.reader.token}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        res.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('"type":"answer"')) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
    });
    const { chunksSent } = await model.abandoned;
    expect(chunksSent).toBeLessThan(100);
  });
});
