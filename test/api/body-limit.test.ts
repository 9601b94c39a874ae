/**
 * A body over BODY_LIMIT is answered 413 with the envelope, and the answer reaches clients that
 * write the whole body before reading (Node's `http`, `fetch`): the server reads and drops the rest
 * of the body (up to a bound) instead of closing the connection under the client's writes.
 * Against `bindery serve` in a process of its own, since the behaviour is the socket's (a server in
 * the test's own process reads only when the client's writes let it).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { createToken } from '../../src/core/tokens.js';
import { createDb } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { type ServerProcess, serveProcess } from '../helpers/server.js';

const BODY_LIMIT = 4 * 1024 * 1024;
let fresh: FreshDatabase;
let server: ServerProcess;
let base: string;
let token: string;
let orgId: string;
beforeAll(async () => {
  fresh = await freshDatabase('body_limit');
  // The organization and token, written before the server starts (as `bindery bootstrap` does).
  const setup = createDb(fresh.url);
  await migrateToLatest(setup);
  const user = await findOrCreateUser(setup, 'limit@example.test', 'Limit');
  orgId = (await createOrganization(setup, { title: 'Limit' }, user.id)).id;
  token = (await createToken(setup, user.id)).token;
  await setup.destroy();
  server = await serveProcess(fresh.url, { BODY_LIMIT: String(BODY_LIMIT) });
  base = server.base;
}, 180_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await fresh?.drop();
});

/** A JSON body `extra` bytes over the limit. */
const oversized = (extra: number) => Buffer.alloc(BODY_LIMIT + extra, 'x');

/** POSTs `body` with node:http, writing all of it before waiting for the answer. */
function postWithHttp(body: Buffer, chunked = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}/v1/orgs/${orgId}/spaces`);
    const request = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(chunked ? {} : { 'content-length': body.length }),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.end(body);
  });
}

const envelope = { error: { code: 413, message: expect.any(String) } };

describe('a body over BODY_LIMIT', () => {
  it('reaches a node:http client that sends it whole as 413, every time', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await postWithHttp(oversized(BODY_LIMIT / 10));
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toEqual(envelope);
    }
  }, 60_000);

  it('reaches a node:http client sending it chunked (no Content-Length) as 413', async () => {
    const res = await postWithHttp(oversized(BODY_LIMIT / 10), true);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual(envelope);
  }, 60_000);

  it('reaches fetch as 413, every time', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/v1/orgs/${orgId}/spaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: oversized(BODY_LIMIT / 10),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(envelope);
    }
  }, 60_000);

  it('still closes the connection of a body far past the bound', async () => {
    // Endless: the server stops reading at its bound; the client sees the answer or a reset, never a hang.
    const outcome = await postWithHttp(oversized(4 * BODY_LIMIT)).then(
      (res) => res.status,
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect([413, 'EPIPE', 'ECONNRESET']).toContain(outcome);
    // And the server still answers.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  }, 60_000);
});
