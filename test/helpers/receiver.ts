/**
 * A webhook receiver on loopback for tests: records every request (headers, body, whether its
 * signature verifies with the official `standardwebhooks` library) and answers with the status the
 * test's `respond` chooses (or holds the request open when it returns null).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The event, as the signature check parsed it; null when the signature did not verify. */
  verified: unknown;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The secret signatures are checked with (set once the webhook is created). */
  secret: string | null;
  /** The status to answer (with headers, e.g. a redirect's `location`), or null to hold the request open. */
  respond: (request: Received, index: number) => number | null | { status: number; headers: Record<string, string> };
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    secret: null,
    respond: () => 200,
    async waitFor(count, timeoutMs = 60_000) {
      if (receiver.received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`the receiver got ${receiver.received.length} of ${count} requests`)),
            timeoutMs,
          );
          waiters.push({
            count,
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          });
        });
      }
      return receiver.received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: unknown = null;
      try {
        verified = receiver.secret
          ? new Webhook(receiver.secret).verify(body, request.headers as Record<string, string>)
          : null;
      } catch {
        verified = null;
      }
      const entry = { headers: request.headers, body, verified };
      receiver.received.push(entry);
      const status = receiver.respond(entry, receiver.received.length - 1);
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (status === null) return; // held open: the sender's deadline or death ends it
      const { status: code, headers } = typeof status === 'number' ? { status, headers: {} } : status;
      response.writeHead(code, { 'content-type': 'text/plain', ...headers }).end(code < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = receiver.close;
  receiver.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return receiver;
}
