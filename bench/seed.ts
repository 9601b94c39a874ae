/**
 * Seeds a benchmark organization through Bindery's own API, as its users would: `bindery bootstrap`
 * for the admin, its organization and token, then HTTP requests to a running server for everything
 * else (invites of BENCH_MEMBERS members, 500 per request; teams with their members; spaces; sites;
 * a collection; a space whose live content has 100 pages, merged from a change request; and an open
 * change request). Every row is written by the API's own writes, so what the bench measures is what
 * an organization built by its users looks like.
 */
import { execFileSync } from 'node:child_process';

export const TEAMS = 100;
export const SPACES = 100;
export const SITES = 100;
export const PAGES = 100;
/** Members per team: team t holds members t·50 … t·50+49 (the first of them owns it). */
const TEAM_SIZE = 50;
const INVITES_PER_REQUEST = 500;
const ROLE_CYCLE = ['read', 'read', 'read', 'read', 'comment', 'edit', 'edit', 'review', 'create', null] as const;

export interface Seeded {
  organizationId: string;
  adminId: string;
  token: string;
  /** A member who belongs to a team (the single-member endpoint reads this one). */
  sampleUserId: string;
  /** Members listed by the API: the invited ones plus the admin. */
  memberCount: number;
  teams: number;
  spaceId: string;
  contentSpaceId: string;
  pageId: string;
  siteId: string;
  collectionId: string;
  changeRequestId: string;
  seconds: number;
}

/** Creates the admin, organization and token with the CLI (what a new installation does). */
export function bootstrap(
  root: string,
  databaseUrl: string,
): { token: string; userId: string; organizationId: string } {
  const out = execFileSync(
    process.execPath,
    [
      'bin/bindery.js',
      'bootstrap',
      '--email',
      'admin@bench.example',
      '--name',
      'Bench Admin',
      '--org',
      'Benchmark Org',
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop() as string);
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  /**
   * One request; a connection error is retried (twice) with the same Idempotency-Key, so a write
   * that did happen is replayed rather than done again.
   */
  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const key = `bench-${Math.random().toString(36).slice(2)}`;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(method === 'POST' ? { 'idempotency-key': key } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        if (attempt >= 2) throw error;
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        process.stderr.write(`bench: ${method} ${path}: ${cause ?? String(error)}; retrying\n`);
        continue;
      }
      const text = await response.text();
      if (response.status >= 300) {
        throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      }
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }
}

/** Runs `tasks` with at most `width` in flight. */
async function inParallel(width: number, tasks: (() => Promise<unknown>)[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) await (tasks[next++] as () => Promise<unknown>)();
    }),
  );
}

const email = (i: number) => `member${i}@bench.example`;

export async function seed(
  api: Api,
  ids: { userId: string; organizationId: string },
  members: number,
  progress: (line: string) => void,
): Promise<Seeded> {
  const started = performance.now();
  const org = ids.organizationId;

  const invites: (() => Promise<unknown>)[] = [];
  for (let from = 0; from < members; from += INVITES_PER_REQUEST) {
    const emails: { email: string; role: string | null }[] = [];
    for (let i = from; i < Math.min(members, from + INVITES_PER_REQUEST); i++) {
      emails.push({ email: email(i), role: ROLE_CYCLE[i % ROLE_CYCLE.length] ?? null });
    }
    invites.push(() => api.call('POST', `/orgs/${org}/invites`, { emails }));
  }
  let sent = 0;
  await inParallel(
    2,
    invites.map((invite) => async () => {
      await invite();
      sent++;
      if (sent % 40 === 0) progress(`invited ${Math.min(members, sent * INVITES_PER_REQUEST)} members`);
    }),
  );

  const phase = (name: string) => progress(`${name} at ${((performance.now() - started) / 1000).toFixed(0)} s`);
  phase('invites done');
  const teams = Math.min(TEAMS, Math.floor(members / TEAM_SIZE));
  await inParallel(
    2,
    Array.from({ length: teams }, (_, t) => () => {
      const keys = Array.from({ length: TEAM_SIZE }, (_, k) => email(t * TEAM_SIZE + k));
      return api.call('PUT', `/orgs/${org}/teams`, { title: `Team ${String(t).padStart(3, '0')}`, members: keys });
    }),
  );
  phase('teams done');
  const spaces: string[] = [];
  await inParallel(
    2,
    Array.from({ length: SPACES }, (_, s) => async () => {
      const space = await api.call('POST', `/orgs/${org}/spaces`, { title: `Space ${String(s).padStart(3, '0')}` });
      spaces[s] = space.id;
    }),
  );
  phase('spaces done');
  const sites: string[] = [];
  await inParallel(
    2,
    Array.from({ length: SITES }, (_, s) => async () => {
      const site = await api.call('POST', `/orgs/${org}/sites`, { title: `Site ${String(s).padStart(3, '0')}` });
      sites[s] = site.id;
    }),
  );
  phase('sites done');
  const collection = await api.call('POST', `/orgs/${org}/collections`, { title: 'Benchmark collection' });

  // A space with 100 live pages, written by a change request and merged.
  const contentSpaceId = spaces[0] as string;
  const cr = await api.call('POST', `/spaces/${contentSpaceId}/change-requests`, { subject: 'Seed pages' });
  for (let from = 0; from < PAGES; from += 50) {
    const changes = Array.from({ length: 50 }, (_, k) => ({
      operation: 'insert_page',
      title: `Page ${from + k}`,
      document: { markdown: `# Page ${from + k}\n\nSome text with **bold** and a [link](https://example.com).\n` },
    }));
    await api.call('POST', `/spaces/${contentSpaceId}/change-requests/${cr.id}/content`, { changes });
  }
  await api.call('POST', `/spaces/${contentSpaceId}/change-requests/${cr.id}/merge`, {});
  const pages = await api.call('GET', `/spaces/${contentSpaceId}/content/pages`);
  phase('pages done');
  const open = await api.call('POST', `/spaces/${contentSpaceId}/change-requests`, { subject: 'Open change request' });

  // A member (not the admin) from the first page of the list: the search endpoint is itself slow
  // at this size (it scans), and the bench should not wait on it.
  const sample = await api.call('GET', `/orgs/${org}/members?limit=100&role=read`);
  return {
    organizationId: org,
    adminId: ids.userId,
    token: api.token,
    sampleUserId: sample.items[Math.min(50, sample.items.length - 1)].id,
    memberCount: members + 1,
    teams,
    spaceId: spaces[1] as string,
    contentSpaceId,
    pageId: pages.pages[0].id,
    siteId: sites[0] as string,
    collectionId: collection.id,
    changeRequestId: open.id,
    seconds: (performance.now() - started) / 1000,
  };
}
