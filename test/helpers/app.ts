/**
 * Test harness: a real app on the run's database, an HTTP client bound to a token, and factories
 * that build what a test needs (each test makes its own organization, so tests never clean up).
 */
import { inject } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createToken } from '../../src/core/tokens.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { UserRow } from '../../src/db/schema.js';
import type { ResolveTxt } from '../../src/lib/dns.js';
import { newId } from '../../src/lib/ids.js';
import type { Role } from '../../src/lib/schemas.js';
import type { Scope } from '../../src/lib/scopes.js';

export const PUBLIC_URL = 'http://bindery.test';

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/** An HTTP client for the app, authenticated with `token` (or anonymous). */
export class Client {
  constructor(
    readonly app: App,
    readonly token?: string,
  ) {}

  async request<T = any>(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> {
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = res.body;
    let parsed: unknown = text;
    if (text && String(res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: res.statusCode, body: parsed as T, headers: res.headers };
  }

  get<T = any>(url: string) {
    return this.request<T>('GET', url);
  }
  post<T = any>(url: string, body?: unknown) {
    return this.request<T>('POST', url, body ?? {});
  }
  put<T = any>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body ?? {});
  }
  patch<T = any>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body ?? {});
  }
  delete<T = any>(url: string) {
    return this.request<T>('DELETE', url);
  }
}

export interface TestUser {
  user: UserRow;
  token: string;
  client: Client;
}

/** What `Harness.space` makes: the organization, its admin, the space and the space's API path. */
export interface SpaceWorld {
  orgId: string;
  admin: TestUser;
  spaceId: string;
  /** `/v1/spaces/{spaceId}` */
  base: string;
}

export interface Harness {
  app: App;
  db: Db;
  anonymous: Client;
  /** A new user with a token (optionally limited to `scopes`). */
  user(options?: { name?: string; scopes?: Scope[] }): Promise<TestUser>;
  /** A new organization administered by a new user. */
  org(options?: { title?: string }): Promise<{ id: string; admin: TestUser }>;
  /** A new organization with one space, created through the API by the organization's admin. */
  space(title?: string): Promise<SpaceWorld>;
  /** A new user who is a member of `organizationId` with `role` (null: guest). */
  member(organizationId: string, role: Role | null, options?: { name?: string; scopes?: Scope[] }): Promise<TestUser>;
  close(): Promise<void>;
}

/**
 * Builds an app on the database of this run (PostgreSQL when configured, else in-memory SQLite).
 * `overrides` change the configuration. The background job worker is off unless they turn it on
 * (`jobConcurrency`): on PostgreSQL every test file shares one database, and a worker of another
 * file would otherwise claim this file's jobs and run them with its own configuration.
 */
export async function createHarness(
  options: Partial<Config> & {
    /** Extra configuration variables, e.g. FETCH_ALLOW_PRIVATE. */ env?: Record<string, string>;
    /**
     * A database of the test's own (a SQLite file or a `postgres://` URL), migrated here: for tests
     * that run a job worker against other processes, away from the run's shared database.
     */
    ownDatabase?: string;
    /** Where the app's JSON log goes (at the configured LOG_LEVEL); no log when absent. */
    logStream?: { write(line: string): void };
    /** Called before the app is made ready: a test's own hooks go here. */
    beforeReady?: (app: App) => void;
    /** The DNS TXT lookup of custom hostnames' verification (default: node:dns). */
    resolveTxt?: ResolveTxt;
  } = {},
): Promise<Harness> {
  const { env = {}, ownDatabase, logStream, beforeReady, resolveTxt, ...overrides } = options;
  const sharedUrl = ownDatabase ?? inject('databaseUrl');
  const db = createDb(sharedUrl ?? ':memory:', { poolSize: 4 });
  if (!sharedUrl || ownDatabase) await migrateToLatest(db);
  const config: Config = {
    // Rate limits off unless a test turns them on: many tests make hundreds of requests a minute.
    ...loadConfig({ PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', ...env }),
    databaseUrl: sharedUrl ?? ':memory:',
    jobConcurrency: 0,
    ...overrides,
  };
  const app = await buildApp({
    config,
    db,
    migrate: false,
    ...(resolveTxt ? { resolveTxt } : {}),
    ...(logStream ? { logStream } : { logger: false }),
  });
  beforeReady?.(app);
  await app.ready();

  const harness: Harness = {
    app,
    db,
    anonymous: new Client(app),
    async user(options = {}) {
      const suffix = newId(8).toLowerCase();
      const user = await findOrCreateUser(db, `user-${suffix}@example.test`, options.name ?? `User ${suffix}`);
      const { token } = await createToken(db, user.id, { scopes: options.scopes });
      return { user, token, client: new Client(app, token) };
    },
    async org(options = {}) {
      const admin = await harness.user();
      const org = await createOrganization(db, { title: options.title ?? `Org ${newId(6)}` }, admin.user.id);
      return { id: org.id, admin };
    },
    async space(title = 'Docs') {
      const org = await harness.org();
      const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title });
      if (space.status !== 201) throw new Error(`creating a space answered ${space.status}`);
      return { orgId: org.id, admin: org.admin, spaceId: space.body.id, base: `/v1/spaces/${space.body.id}` };
    },
    async member(organizationId, role, options = {}) {
      const member = await harness.user(options);
      await db
        .insertInto('members')
        .values({
          organization_id: organizationId,
          user_id: member.user.id,
          role,
          disabled: 0,
          sso: 0,
          joined_at: new Date().toISOString(),
          last_seen_at: null,
        })
        .execute();
      return member;
    },
    async close() {
      await app.close();
      await db.destroy();
    },
  };
  return harness;
}
