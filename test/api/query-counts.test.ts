/**
 * How many SQL statements each hot GET runs when the response cache cannot answer it: the steady
 * state of a running server whose response cache was just emptied by a write elsewhere (issue 35's
 * goal: at most 3 for a single resource; a small fixed number for a list page of 100, whatever
 * the page holds). The server runs with the response cache off (`RESPONSE_CACHE_MB=0`), so every
 * request reaches its handler.
 *
 * What is cached, and so not counted: the short-lived caches of core/cache.ts in the state they
 * are in after a first request, as on a running server (a write in another organization does not
 * empty them): the caller's token, their membership of the organization, the organization's
 * collection tree and the grants reaching the caller (src/permissions/access-cache.ts), the
 * organization's site-space nodes (src/sites/node-cache.ts) and member count; and what is cached by
 * an immutable key (a revision's parsed tree by its id, documents by their hash, a revision's Git
 * metadata). Each test reads its URL once to warm them, then counts the second read. The count is taken at the driver
 * (test/helpers/query-count.ts, as `npm run bench` takes it), so it holds every statement, however
 * it was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld, type TestUser } from '../helpers/app.js';
import { mergeChanges, newChangeRequest } from '../helpers/change-requests.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { countQueries, type QueryCounter } from '../helpers/query-count.js';

/** The goal for a single resource (issue 35). */
const SINGLE_READ_QUERIES = 3;
/**
 * A list page of 100: its rows with what presenting them needs, the count beside them, and what
 * authorizing the caller needs that is not cached (the space of a space's list); none per item.
 */
const LIST_PAGE_QUERIES = 3;
const PAGE_SIZE = 100;
/** core/cache.ts's quarantine after an invalidation. */
const QUARANTINE_MS = 2_000;

let h: Harness;
let counter: QueryCounter;
let world: SpaceWorld;
let reader: TestUser;
let pageId: string;
let changeRequestId: string;
let siteId: string;
let fullSpaceId: string;

// A database of this file's own: on PostgreSQL every test file shares one, and the other files'
// writes, heard on the change channel, would empty the short-lived caches between the warming read
// and the counted one.
let database: FreshDatabase;

beforeAll(async () => {
  counter = countQueries();
  database = await freshDatabase('query-counts');
  h = await createHarness({ responseCacheBytes: 0, ownDatabase: database.url });
  world = await h.space('Counted');
  const client = world.admin.client;
  await mergeChanges(world, 'Start', [
    { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Install\n\nRun it.' } },
    { operation: 'insert_page', title: 'Configure', document: { markdown: 'Set `a` to `b`.' } },
  ]);
  const pages = await client.get(`${world.base}/content/pages`);
  pageId = pages.body.pages[0].id;
  // A reader who reaches the space through a team's grant, not through their organization role.
  reader = await h.member(world.orgId, null);
  const team = await client.put(`/v1/orgs/${world.orgId}/teams`, { title: 'Readers', members: [reader.user.id] });
  expect(team.status, JSON.stringify(team.body)).toBe(201);
  const granted = await client.post(`${world.base}/permissions`, { role: 'read', teams: [team.body.id] });
  expect(granted.status, JSON.stringify(granted.body)).toBeLessThan(300);

  for (let i = 0; i < PAGE_SIZE; i++) await h.member(world.orgId, i % 3 === 0 ? 'edit' : 'read');
  for (let i = 1; i < PAGE_SIZE; i++) {
    const space = await client.post(`/v1/orgs/${world.orgId}/spaces`, { title: `Space ${i}` });
    expect(space.status).toBe(201);
  }
  for (let i = 0; i < PAGE_SIZE; i++) changeRequestId = (await newChangeRequest(world, `Edit ${i}`)).id;
  fullSpaceId = world.spaceId;
  const site = await client.post(`/v1/orgs/${world.orgId}/sites`, { title: 'Docs', spaces: [world.spaceId] });
  expect(site.status).toBe(201);
  siteId = site.body.id;
  // The setup's writes invalidated the caches' tags, and for 2 s after an invalidation nothing
  // tagged with it is cached (core/cache.ts): wait that out, as a running server has.
  await new Promise((resolve) => setTimeout(resolve, QUARANTINE_MS + 100));
}, 300_000);

afterAll(async () => {
  counter?.restore();
  await h?.close();
  await database?.drop();
});

/**
 * The statements a read of `url` runs once the short-lived caches are warm (a first read warms
 * them). The fewest of three reads: with `isolate: false` other test files run in this process, and
 * what their own apps hear of other processes' changes empties the caches this process shares
 * (core/cache.ts), now and then between the warming read and a counted one.
 */
async function queriesOf(url: string, as: TestUser = world.admin): Promise<string[]> {
  const first = await as.client.get(url);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  let sent: string[] | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    let again: Awaited<ReturnType<typeof as.client.get>> | undefined;
    const statements = await counter.during(async () => {
      again = await as.client.get(url);
    });
    expect(again?.status).toBe(200);
    expect(again?.body).toEqual(first.body);
    if (sent === undefined || statements.length < sent.length) sent = statements;
  }
  if (sent === undefined) throw new Error('no read counted');
  // Every one of these reads rows of the database: none counted would mean the counter missed them.
  expect(sent.length).toBeGreaterThan(0);
  if (process.env.SHOW_QUERIES) console.log(`${url}: ${sent.length}\n  ${sent.join('\n  ')}`);
  return sent;
}

describe('queries per uncached GET', () => {
  const single = (name: string, url: () => string, as?: () => TestUser) =>
    it(`${name}: at most ${SINGLE_READ_QUERIES}`, async () => {
      const sent = await queriesOf(url(), as?.());
      expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(SINGLE_READ_QUERIES);
    });

  single('GET /orgs/{id}', () => `/v1/orgs/${world.orgId}`);
  single('GET /spaces/{id}', () => world.base);
  single(
    'GET /spaces/{id} as a team-granted reader',
    () => world.base,
    () => reader,
  );
  single('GET /spaces/{id}/content/page/{pageId}', () => `${world.base}/content/page/${pageId}`);
  single(
    'GET /spaces/{id}/content/page/{pageId} as a team-granted reader',
    () => `${world.base}/content/page/${pageId}`,
    () => reader,
  );
  single(
    'GET /spaces/{id}/change-requests/{crId}/content/page/{pageId}',
    () => `${world.base}/change-requests/${changeRequestId}/content/page/${pageId}`,
  );
  single('GET /spaces/{id}/change-requests/{crId}', () => `${world.base}/change-requests/${changeRequestId}`);
  single('GET /orgs/{id}/sites/{siteId}', () => `/v1/orgs/${world.orgId}/sites/${siteId}`);

  const list = (name: string, url: () => string) =>
    it(`${name}, a page of ${PAGE_SIZE}: at most ${LIST_PAGE_QUERIES}`, async () => {
      const target = url();
      const page = await world.admin.client.get(target);
      expect(page.body.items).toHaveLength(PAGE_SIZE);
      const sent = await queriesOf(target);
      expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(LIST_PAGE_QUERIES);
    });

  list('GET /orgs/{id}/members', () => `/v1/orgs/${world.orgId}/members?limit=${PAGE_SIZE}`);
  list('GET /orgs/{id}/spaces', () => `/v1/orgs/${world.orgId}/spaces?limit=${PAGE_SIZE}`);
  list('GET /spaces/{id}/change-requests', () => `/v1/spaces/${fullSpaceId}/change-requests?limit=${PAGE_SIZE}`);
});
