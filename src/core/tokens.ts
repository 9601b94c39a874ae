/**
 * Personal access tokens. The secret is shown once, at creation; only its SHA-256 is stored (the
 * secret has 256 random bits, so a fast hash is enough). Tokens may carry scopes and an expiry and
 * can be revoked.
 */
import { createHash } from 'node:crypto';
import { afterCommit } from '../db/after-commit.js';
import type { Db } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { ApiTokenRow, UserRow } from '../db/schema.js';
import { userScope } from '../db/write-scope.js';
import { newId, newSecret } from '../lib/ids.js';
import type { Scope } from '../lib/scopes.js';
import { nowIso } from '../lib/time.js';
import { invalidate, TtlCache } from './cache.js';

const TOKEN_PREFIX = 'bnd_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface CreatedToken {
  id: string;
  token: string;
  expiresAt: string | null;
}

export async function createToken(
  db: Db,
  userId: string,
  options: { scopes?: Scope[]; expiresAt?: Date; label?: string | null } = {},
): Promise<CreatedToken> {
  const id = newId();
  const token = `${TOKEN_PREFIX}${newSecret()}`;
  const expiresAt = options.expiresAt ? options.expiresAt.toISOString() : null;
  await db
    .insertInto('api_tokens')
    .values({
      id,
      user_id: userId,
      label: options.label ?? null,
      secret_hash: hashSecret(token),
      scopes: options.scopes && options.scopes.length > 0 ? JSON.stringify(options.scopes) : null,
      expires_at: expiresAt,
      revoked_at: null,
      created_at: nowIso(),
      last_used_at: null,
    })
    .execute();
  return { id, token, expiresAt };
}

/** The token's row (revoked or not), or undefined. */
export function findToken(db: Db, tokenId: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('id', '=', tokenId).executeTakeFirst();
}

/** Marks the token revoked; false when no such token exists. */
export async function revokeToken(db: Db, tokenId: string): Promise<boolean> {
  invalidate(tokenTag(tokenId));
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: nowIso() })
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  invalidate(tokenTag(tokenId));
  // In a transaction, again once it has committed (a check in between could cache the token anew).
  afterCommit(db, () => invalidate(tokenTag(tokenId)));
  if (Number(result.numUpdatedRows) > 0) return true;
  const existing = await db.selectFrom('api_tokens').select('id').where('id', '=', tokenId).executeTakeFirst();
  return existing !== undefined;
}

export interface VerifiedToken {
  tokenId: string;
  user: UserRow;
  scopes: ReadonlySet<string> | null;
}

export type TokenCheck = { ok: true; token: VerifiedToken } | { ok: false; reason: string };

interface CachedToken {
  token: VerifiedToken;
  /** Epoch ms; null when the token never expires. */
  expiresAt: number | null;
  /** When `last_used_at` was last written (epoch ms). */
  lastUsed: number;
}

/**
 * Valid tokens by the secret presented, for 10 s: checking the token was a query (with the user
 * join) on every request, and hashing the secret to look it up cost more than the rest of the
 * check. The secrets are kept only in this process's memory, as the requests carrying them are.
 * Revocation drops the entry in this process at once (`token:<id>`); another process may accept a
 * token it revoked for up to 10 s. Expiry is checked on every use.
 */
const TOKEN_TTL_MS = 10_000;
const tokens = new TtlCache<CachedToken>(TOKEN_TTL_MS);
const tokenTag = (tokenId: string) => `token:${tokenId}`;
/** Cached tokens carry their user's row: a change of the user (updateUserById) drops them. */
const userTag = (userId: string) => `token-user:${userId}`;

/** Call when a user's row changes (after its commit): this process's cached tokens of the user go. */
export function userChanged(userId: string): void {
  invalidate(userTag(userId));
}
/** `last_used_at` is written at most once a minute per token, so a busy token does not write on every request. */
const LAST_USED_EVERY_MS = 60_000;

/** The token by its secret's hash, with its user (run on a cache miss). */
const tokenWithUser = prepare((db, p: { hash: string }) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.scopes',
      'api_tokens.expires_at',
      'api_tokens.revoked_at',
      'api_tokens.last_used_at',
      'users.id',
      'users.email',
      'users.display_name',
      'users.photo_url',
      'users.created_at',
    ])
    .where('api_tokens.secret_hash', '=', p.hash),
);

const EXPIRED: TokenCheck = Object.freeze({ ok: false, reason: 'the access token has expired' });

function checkExpiry(cached: CachedToken, now: number): TokenCheck {
  if (cached.expiresAt !== null && cached.expiresAt <= now) return EXPIRED;
  return { ok: true, token: cached.token };
}

/**
 * Looks the secret up; says why it is refused when it is. Answers at once (not a promise) when the
 * token is cached and `last_used_at` needs no write, as on nearly every request, so the
 * authentication hook does not wait for a turn of the event loop.
 */
export function verifyToken(db: Db, secret: string): TokenCheck | Promise<TokenCheck> {
  const now = Date.now();
  return cachedTokenCheck(secret, now) ?? verifyWithDatabase(db, secret, tokens.get(secret, now), now);
}

/**
 * What {@link verifyToken} answers at once, without starting anything; undefined when it would
 * need the database (not cached, or its `last_used_at` is due).
 */
export function cachedTokenCheck(secret: string, now = Date.now()): TokenCheck | undefined {
  const cached = tokens.get(secret, now);
  return cached && now - cached.lastUsed <= LAST_USED_EVERY_MS ? checkExpiry(cached, now) : undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The secret of an `Authorization: Bearer <secret>` header; null for any other value. */
export function bearerSecret(header: string): string | null {
  return BEARER.exec(header)?.[1] ?? null;
}

async function verifyWithDatabase(
  db: Db,
  secret: string,
  found: CachedToken | undefined,
  now: number,
): Promise<TokenCheck> {
  let cached = found;
  if (!cached) {
    const readAt = Date.now();
    const row = await tokenWithUser.first(db, { hash: hashSecret(secret) });
    if (!row) return { ok: false, reason: 'the access token is invalid' };
    if (row.revoked_at) return { ok: false, reason: 'the access token has been revoked' };
    cached = {
      expiresAt: row.expires_at ? Date.parse(row.expires_at) : null,
      lastUsed: row.last_used_at ? Date.parse(row.last_used_at) : 0,
      token: {
        tokenId: row.token_id,
        scopes: row.scopes ? new Set(JSON.parse(row.scopes) as string[]) : null,
        user: {
          id: row.id,
          email: row.email,
          display_name: row.display_name,
          photo_url: row.photo_url,
          created_at: row.created_at,
        },
      },
    };
    // Tokens and users change only by global writes: the user's scope is tag enough (core/cache.ts).
    tokens.set(secret, cached, [tokenTag(row.token_id), userTag(row.id), userScope(row.id)], readAt);
  }
  const check = checkExpiry(cached, now);
  if (check.ok && now - cached.lastUsed > LAST_USED_EVERY_MS) {
    cached.lastUsed = now;
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', cached.token.tokenId)
      .execute();
  }
  return check;
}

/** Parses a duration such as `30d`, `12h`, `45m` into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)([smhdw])$/.exec(text.trim());
  if (!match) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] as 's'];
  const value = Number(match[1]);
  return value > 0 ? value * unit : null;
}
