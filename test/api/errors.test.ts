/**
 * Every error is the envelope, including those raised before any route runs: by the router
 * (percent-encoding, parameter length), by Node's HTTP parser (sent over a real socket), by
 * Node's own checks (Host, Expect), and while the server shuts down.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => h.close());

const envelope = (code: number) => ({ error: { code, message: expect.any(String) } });

/** Sends `request` as raw bytes and returns the status and parsed JSON body of the answer. */
function raw(request: string): Promise<{ status: number; headers: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      try {
        resolve({ status, headers: head, body: JSON.parse(body) });
      } catch {
        resolve({ status, headers: head, body });
      }
    };
    const timer = setTimeout(done, 5000);
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('close', done);
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('router errors', () => {
  it('a path parameter over the router limit is a 414 with the envelope', async () => {
    const org = await h.org();
    const res = await org.admin.client.get(`/v1/spaces/${'x'.repeat(3000)}`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual(envelope(414));
    expect(res.body.error.message).toContain('longer than 1000 characters');
    // The message quotes the path, cut short.
    expect(res.body.error.message.length).toBeLessThan(200);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('a path that is not valid percent-encoding is a 400 with the envelope', async () => {
    const org = await h.org();
    for (const url of [`/v1/orgs/${org.id}/sites/%E0%A4%A`, '/v1/nothing/%E0%A4%A', '/v1/spaces/%ZZ']) {
      const res = await org.admin.client.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual(envelope(400));
      expect(res.body.error.message).toContain('percent-encoded');
    }
  });
});

describe('HTTP parser and Node errors', () => {
  it('headers over the size limit are a 431 with the envelope', async () => {
    const res = await raw(`GET /v1/user HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(envelope(431));
    expect(res.headers).toMatch(/content-type: application\/json/i);
  });

  it('a request the parser refuses is a 400 with the envelope', async () => {
    for (const request of [
      'GARBAGE\r\n\r\n',
      'GET /v1/user HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'POST /v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ]) {
      const res = await raw(request);
      expect(res.status, request).toBe(400);
      expect(res.body, request).toEqual(envelope(400));
    }
  });

  it('an HTTP/1.1 request without Host is a 400 with the envelope', async () => {
    const res = await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: 'the Host header is required' } });
    // HTTP/1.0 has no Host requirement.
    expect((await raw('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('an unsupported Expect is a 417 with the envelope', async () => {
    const res = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: magic\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(417);
    expect(res.body).toEqual(envelope(417));
  });
});

describe('body errors', () => {
  it('bad JSON, wrong content type, bad content length: the envelope', async () => {
    const org = await h.org();
    const headers = { authorization: `Bearer ${org.admin.token}` };
    const cases = [
      { payload: '{"title": ', type: 'application/json', status: 400 },
      { payload: '{"__proto__": {"x": 1}}', type: 'application/json', status: 400 },
      { payload: 'a,b', type: 'text/csv', status: 415 },
      { payload: '{}', type: ';;;', status: 415 },
    ];
    for (const c of cases) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: { ...headers, 'content-type': c.type },
        payload: c.payload,
      });
      expect(res.statusCode, c.payload).toBe(c.status);
      expect(res.json(), c.payload).toEqual(envelope(c.status));
    }
  });
});

// Last: it closes the app (building a second one costs seconds per file).
describe('shutdown', () => {
  it('a request arriving while the server closes is a 503 with the envelope', async () => {
    const org = await h.org();
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // A request whose body is still arriving keeps the connection busy while the server closes;
    // a second request pipelined behind it arrives once closing has begun.
    socket.write(
      `PATCH /v1/orgs/${org.id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.admin.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 19\r\n\r\n{"title":',
    );
    await sleep(300);
    const closing = h.app.close();
    await sleep(300);
    socket.write('"Renamed"}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    for (let i = 0; i < 100 && !data.includes('shutting down'); i++) await sleep(50);
    socket.destroy();
    await closing;
    const [first, second] = data.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(second?.split('\r\n\r\n')[1] ?? '')).toEqual(envelope(503));
  });
});
