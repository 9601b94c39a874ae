/**
 * `Idempotency-Key` on every authenticated `POST` under `/v1` (the IETF draft
 * draft-ietf-httpapi-idempotency-key-header, as Stripe does it): the first request with a key does
 * the work and its response (status, body, `Location`, `Content-Type`) is kept 24 hours for that
 * token; a retry with the same key, path and body gets that response again (`Idempotent-Replayed:
 * true`) without the work being done again. The same key with another body or path is a 422; a retry
 * while the first is still running is a 409.
 *
 * The key is claimed by inserting its row (primary key token + key) before the handler runs, so two
 * processes on one database cannot both run it. Responses of 5xx are not kept (the row is removed: a
 * retry runs again); neither are bodies that are not text. A row left `running` by a process that
 * died is taken over after {@link ABANDONED_MS}. Expired rows are purged at most every 10 minutes.
 * Requests refused before the handler (authentication, rate limit, validation) never claim the key.
 *
 * A kept body is sealed (src/core/secrets.ts, bound to the token and key): the answers worth
 * replaying are those of creations, and some of them hold a secret shown only once (a webhook's
 * signing secret, a site's visitor key, a token). Keeping them readable would leave those secrets in
 * the database for a day; not keeping them would break the one retry that matters (the answer of a
 * creation lost on the way: run again, it would make a second one with another secret). Sealed, a
 * replay still gives the same caller the same answer, and a row copied elsewhere reads as nothing.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { decryptSecret, encryptSecret, secretsKey } from '../core/secrets.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/dialect.js';
import { ApiError, badRequest, conflict } from '../lib/errors.js';

const KEEP_MS = 24 * 3_600_000;
/** A claim older than this with no response stored belongs to a request that will never finish. */
const ABANDONED_MS = 15 * 60_000;
const PURGE_EVERY_MS = 10 * 60_000;
/** Response headers replayed with the stored body. */
const REPLAYED_HEADERS = ['location', 'content-type'] as const;

interface Claim {
  tokenId: string;
  key: string;
}

function fingerprint(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body = request.body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) hash.update(body);
  else hash.update(JSON.stringify(body ?? null));
  return hash.digest('hex');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

type Stored = { status: number; headers: Record<string, string>; body: string };
type ClaimResult = { claimed: true } | { claimed: false; stored: Stored };

/** What a sealed body is bound to: the token and the key it was answered for. */
const sealingContext = (claimKey: Claim) => `idempotency:${claimKey.tokenId}:${claimKey.key}`;

function unseal(key: Buffer, claimKey: Claim, sealed: string): string {
  try {
    return decryptSecret(key, sealed, sealingContext(claimKey));
  } catch {
    // Sealed under another SECRETS_KEY (changed since): the answer cannot be given back.
    throw conflict('Idempotency-Key: the response kept for this key can no longer be read; use a new key');
  }
}

/** Inserts the key's row, or says why not: a stored response to replay, or an error. */
async function claim(db: Db, claimKey: Claim, print: string, sealKey: () => Promise<Buffer>): Promise<ClaimResult> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = new Date();
    try {
      await db
        .insertInto('idempotency_keys')
        .values({
          token_id: claimKey.tokenId,
          key: claimKey.key,
          fingerprint: print,
          state: 'running',
          status: null,
          headers: null,
          body: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + KEEP_MS).toISOString(),
        })
        .execute();
      return { claimed: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('token_id', '=', claimKey.tokenId)
      .where('key', '=', claimKey.key)
      .executeTakeFirst();
    if (!row) continue; // released meanwhile (a 5xx): claim again
    const expired = row.expires_at <= now.toISOString();
    const abandoned = row.state === 'running' && Date.parse(row.created_at) < now.getTime() - ABANDONED_MS;
    if (expired || abandoned) {
      // Conditional on the row read, so of two processes taking it over only one deletes it.
      await db
        .deleteFrom('idempotency_keys')
        .where('token_id', '=', row.token_id)
        .where('key', '=', row.key)
        .where('created_at', '=', row.created_at)
        .execute();
      continue;
    }
    if (row.fingerprint !== print) {
      throw new ApiError(
        422,
        'Idempotency-Key: this key was already used with another request (method, path or body differ)',
      );
    }
    if (row.state !== 'done' || row.status === null) {
      throw conflict('Idempotency-Key: the first request with this key is still being processed; retry later');
    }
    const body = row.body === null ? '' : unseal(await sealKey(), claimKey, row.body);
    return { claimed: false, stored: { status: row.status, headers: JSON.parse(row.headers ?? '{}'), body } };
  }
  throw conflict('Idempotency-Key: the key is being used by concurrent requests; retry later');
}

/**
 * The claim (a `preHandler`) and the keeping of the response (an `onSend`) on every POST route of
 * the API: after authentication (a key is the token's) and the hooks that may refuse a request.
 */
export const idempotency = fp(registerIdempotency, {
  name: 'bindery-idempotency',
  dependencies: ['bindery-context', 'bindery-auth'],
});

async function registerIdempotency(app: FastifyInstance): Promise<void> {
  const db = app.db;
  // Kept bodies are sealed with the server's secrets key.
  const sealKey = () => secretsKey(db, app.config.secretsKey, app.log);
  const claims = new WeakMap<FastifyRequest, Claim>();
  let lastPurge = 0;

  function purge() {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    db.deleteFrom('idempotency_keys')
      .where('expires_at', '<', new Date().toISOString())
      .execute()
      .catch((error) => app.log.warn({ err: error }, 'could not purge expired idempotency keys'));
  }

  async function claimOrReplay(request: FastifyRequest, reply: FastifyReply) {
    // Keys are kept per access token; a browser session (which has none) does not replay.
    if (request.method !== 'POST' || !request.auth || request.auth.sessionId) return;
    const key = header(request, 'idempotency-key');
    if (key === undefined) return;
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const claimKey = { tokenId: request.auth.tokenId, key };
    const result = await claim(db, claimKey, fingerprint(request), sealKey);
    purge();
    if (result.claimed) {
      claims.set(request, claimKey);
      return;
    }
    const { status, headers, body } = result.stored;
    await reply.code(status).headers(headers).header('idempotent-replayed', 'true').send(body);
    return reply;
  }

  async function storeResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claimKey = claims.get(request);
    if (!claimKey) return payload;
    claims.delete(request);
    const row = db
      .updateTable('idempotency_keys')
      .where('token_id', '=', claimKey.tokenId)
      .where('key', '=', claimKey.key);
    const text = typeof payload === 'string' ? payload : payload == null ? '' : null;
    if (reply.statusCode >= 500 || text === null) {
      // Not replayable: let a retry run again.
      await db
        .deleteFrom('idempotency_keys')
        .where('token_id', '=', claimKey.tokenId)
        .where('key', '=', claimKey.key)
        .execute();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    // Stored before the response leaves, so a retry sent after it arrives finds it.
    const body = encryptSecret(await sealKey(), text, sealingContext(claimKey));
    await row.set({ state: 'done', status: reply.statusCode, headers: JSON.stringify(headers), body }).execute();
    return payload;
  }

  // Only the API's POST routes get the hooks: every other request would run them for nothing.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/v1') || !methods.includes('POST')) return;
    route.preHandler = [...hooksOf(route.preHandler), claimOrReplay];
    route.onSend = [...hooksOf(route.onSend), storeResponse];
  });
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
