/**
 * Browser sessions, below HTTP: the cookie carries a random secret (256 bits); only its SHA-256 is
 * stored, with a public id that lists and revocations use. A session ends when it is deleted
 * (sign-out, revocation, a password reset), after `idleMs` without use, or `maxMs` after it began.
 * The CSRF token is derived from the secret (a second hash), so it is never stored and a page can
 * only learn it from `GET /auth/session`, which needs the cookie.
 *
 * Valid sessions are cached by secret for 10 s, as tokens are (src/core/tokens.ts): deleting a
 * session drops it at once in this process (`session:<id>`), and other processes empty their caches
 * when they learn of the change (src/http/change-feed.ts).
 */
import { createHash } from 'node:crypto';
import { afterCommit } from '../db/after-commit.js';
import type { Db } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { SessionRow, UserRow } from '../db/schema.js';
import { userScope } from '../db/write-scope.js';
import { newId, newSecret } from '../lib/ids.js';
import { invalidate, TtlCache } from './cache.js';
import type { DbOrTrx } from './service.js';
import { hashSecret } from './tokens.js';

export type SignInMethod = 'password' | 'oidc' | 'saml';

export interface SessionPolicy {
  /** A session unused this long ends (`SESSION_IDLE_DAYS`). */
  idleMs: number;
  /** A session ends this long after it began, however used (`SESSION_MAX_DAYS`). */
  maxMs: number;
}

export interface NewSession {
  userId: string;
  method: SignInMethod;
  providerId?: string | null;
  userAgent?: string | null;
  clientAddress?: string | null;
}

export interface CreatedSession {
  id: string;
  /** The cookie's value: returned once, here. */
  secret: string;
  /** When the session ends at the latest (its absolute expiry). */
  expiresAt: string;
}

const SESSION_PREFIX = 'bss_';

/** The CSRF token of the session whose cookie secret is `secret`. */
export function csrfTokenOf(secret: string): string {
  return createHash('sha256').update(`csrf\u0000${secret}`).digest('base64url');
}

/** Stores a new session (the caller sets the cookie). `now` is injectable for tests of expiry. */
export async function createSession(
  db: DbOrTrx,
  session: NewSession,
  policy: SessionPolicy,
  now = Date.now(),
): Promise<CreatedSession> {
  const id = newId();
  const secret = `${SESSION_PREFIX}${newSecret()}`;
  const at = new Date(now).toISOString();
  const expiresAt = new Date(now + policy.maxMs).toISOString();
  await db
    .insertInto('sessions')
    .values({
      id,
      user_id: session.userId,
      secret_hash: hashSecret(secret),
      method: session.method,
      provider_id: session.providerId ?? null,
      user_agent: session.userAgent?.slice(0, 512) ?? null,
      client_address: session.clientAddress ?? null,
      created_at: at,
      last_used_at: at,
      expires_at: expiresAt,
    })
    .execute();
  // The user's sessions that have ended are removed as a new one begins (nothing else reads them).
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', session.userId)
    .where((eb) =>
      eb.or([eb('expires_at', '<=', at), eb('last_used_at', '<=', new Date(now - policy.idleMs).toISOString())]),
    )
    .execute();
  return { id, secret, expiresAt };
}

export interface VerifiedSession {
  sessionId: string;
  user: UserRow;
  csrfToken: string;
  /** When the session ends unless used again (the earlier of its idle and its absolute expiry). */
  expiresAt: string;
}

export type SessionCheck = { ok: true; session: VerifiedSession } | { ok: false; reason: string };

interface CachedSession {
  sessionId: string;
  user: UserRow;
  csrfToken: string;
  /** Epoch ms. */
  maxExpiry: number;
  lastUsed: number;
}

const SESSION_TTL_MS = 10_000;
const sessions = new TtlCache<CachedSession>(SESSION_TTL_MS);
const sessionTag = (sessionId: string) => `session:${sessionId}`;
/** `last_used_at` is written at most once a minute per session. */
const LAST_USED_EVERY_MS = 60_000;

const sessionWithUser = prepare((db, p: { hash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at',
      'sessions.last_used_at',
      'users.id',
      'users.email',
      'users.display_name',
      'users.photo_url',
      'users.created_at',
    ])
    .where('sessions.secret_hash', '=', p.hash),
);

const ENDED: SessionCheck = Object.freeze({ ok: false, reason: 'the session has ended; sign in again' });

function check(cached: CachedSession, policy: SessionPolicy, now: number): SessionCheck {
  const end = Math.min(cached.maxExpiry, cached.lastUsed + policy.idleMs);
  if (end <= now) return ENDED;
  const expiresAt = new Date(Math.min(cached.maxExpiry, Math.max(now, cached.lastUsed) + policy.idleMs));
  return {
    ok: true,
    session: {
      sessionId: cached.sessionId,
      user: cached.user,
      csrfToken: cached.csrfToken,
      expiresAt: expiresAt.toISOString(),
    },
  };
}

/**
 * The session whose cookie secret is `secret`, or why it is refused. Using a session moves its idle
 * expiry (written at most once a minute). `now` is injectable for tests of expiry.
 */
export async function verifySession(
  db: Db,
  secret: string,
  policy: SessionPolicy,
  now = Date.now(),
): Promise<SessionCheck> {
  if (!secret.startsWith(SESSION_PREFIX)) return { ok: false, reason: 'the session cookie is invalid' };
  let cached = sessions.get(secret);
  if (!cached) {
    const readAt = Date.now();
    const row = await sessionWithUser.first(db, { hash: hashSecret(secret) });
    if (!row) return ENDED;
    cached = {
      sessionId: row.session_id,
      user: {
        id: row.id,
        email: row.email,
        display_name: row.display_name,
        photo_url: row.photo_url,
        created_at: row.created_at,
      },
      csrfToken: csrfTokenOf(secret),
      maxExpiry: Date.parse(row.expires_at),
      lastUsed: Date.parse(row.last_used_at),
    };
    // Sessions and users change only by global writes: the user's scope is tag enough (core/cache.ts).
    sessions.set(secret, cached, [sessionTag(row.session_id), `user-sessions:${row.id}`, userScope(row.id)], readAt);
  }
  const result = check(cached, policy, now);
  if (result.ok && now - cached.lastUsed > LAST_USED_EVERY_MS) {
    cached.lastUsed = now;
    await db
      .updateTable('sessions')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', cached.sessionId)
      .execute();
  }
  return result;
}

/** One session of a user (undefined when it is not theirs or has ended). */
export function findSession(db: DbOrTrx, sessionId: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
}

/** The sessions of `userId` that have not ended, newest first. */
export async function listSessions(
  db: DbOrTrx,
  userId: string,
  policy: SessionPolicy,
  now = Date.now(),
): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date(now).toISOString())
    .where('last_used_at', '>', new Date(now - policy.idleMs).toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

function dropCached(db: DbOrTrx, tags: string[]): void {
  invalidate(...tags);
  // In a transaction, again once it has committed (a check in between could cache it anew).
  afterCommit(db, () => invalidate(...tags));
}

/** Ends one session at once in this process (others learn of it through the change feed). */
export async function deleteSession(db: DbOrTrx, sessionId: string): Promise<boolean> {
  dropCached(db, [sessionTag(sessionId)]);
  const result = await db.deleteFrom('sessions').where('id', '=', sessionId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of `userId` but `exceptId`; the ids of those ended. */
export async function deleteSessionsOfUser(db: DbOrTrx, userId: string, exceptId?: string | null): Promise<string[]> {
  dropCached(db, [`user-sessions:${userId}`]);
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}
