/**
 * Guarded outbound HTTP(S) fetches, for everything the server downloads on a caller's behalf
 * (imports, files inserted by URL). A caller controls the URL, so:
 * - only `http:` and `https:`;
 * - the address actually connected to is checked (in the socket's DNS lookup, so a name cannot
 *   resolve to one address when checked and another when used): private, loopback, link-local,
 *   CGNAT, multicast and reserved ranges are refused unless `allowPrivate`;
 * - redirects are followed by hand, at most `maxRedirects`, each target checked the same way;
 * - one deadline (`timeoutMs`) covers the whole exchange, redirects included;
 * - the body is cut off past `maxBytes` (declared or streamed).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export type FetchErrorCode = 'FETCH_TIMEOUT' | 'FETCH_TOO_LARGE' | 'FETCH_FORBIDDEN_ADDRESS' | 'FETCH_FAILED';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}
export class FetchTimeoutError extends FetchError {
  constructor(message: string) {
    super('FETCH_TIMEOUT', message);
  }
}
export class FetchTooLargeError extends FetchError {
  constructor(message: string) {
    super('FETCH_TOO_LARGE', message);
  }
}
export class FetchForbiddenAddressError extends FetchError {
  constructor(message: string) {
    super('FETCH_FORBIDDEN_ADDRESS', message);
  }
}
export class FetchFailedError extends FetchError {
  constructor(message: string) {
    super('FETCH_FAILED', message);
  }
}

export interface GuardedFetchOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
}

export interface FetchResult {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is in a range a guarded fetch must not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms are judged by their IPv4 address.
  const mapped = /^(?:0*:)*(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const hexMapped = /^(?:0*:)*ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped?.[1] && hexMapped[2]) {
    const high = Number.parseInt(hexMapped[1], 16);
    const low = Number.parseInt(hexMapped[2], 16);
    return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

type LookupCallback = (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A DNS lookup for the socket that refuses forbidden addresses. */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      const refused = allowPrivate ? [] : list.filter((a) => isForbiddenAddress(a.address));
      if (refused.length > 0 || list.length === 0) {
        return callback(new FetchForbiddenAddressError(`${hostname} resolves to a forbidden address`), []);
      }
      if (options.all) return callback(null, list);
      const first = list[0] as dns.LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchFailedError(`"${raw}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchForbiddenAddressError(`only http and https URLs can be fetched, not ${url.protocol}`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(host) && isForbiddenAddress(host)) {
    throw new FetchForbiddenAddressError(`${host} is a forbidden address`);
  }
  return url;
}

interface Hop {
  status: number;
  location?: string;
  contentType: string;
  body: Buffer;
}

function requestOnce(url: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(
      url,
      {
        lookup: guardedLookup(options.allowPrivate) as unknown as typeof dns.lookup,
        headers: { 'user-agent': 'Bindery-Importer/1.0', accept: '*/*', 'accept-encoding': 'identity' },
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers['content-type'] ?? '');
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          return resolve({ status, location, contentType, body: Buffer.alloc(0) });
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.destroy();
          return reject(new FetchTooLargeError(`${url.href} is ${declared} bytes; the limit is ${options.maxBytes}`));
        }
        const parts: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            reject(new FetchTooLargeError(`${url.href} is larger than the limit of ${options.maxBytes} bytes`));
            return;
          }
          parts.push(chunk);
        });
        response.on('end', () => resolve({ status, contentType, body: Buffer.concat(parts) }));
        response.on('error', (error) => reject(error));
      },
    );
    request.on('error', reject);
  });
}

/** Fetches `url` under the guards above; throws a {@link FetchError} subclass when refused or failed. */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<FetchResult> {
  const maxRedirects = options.maxRedirects ?? 5;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  let current = checkUrl(url, options.allowPrivate);
  try {
    for (let hops = 0; ; hops++) {
      const hop = await requestOnce(current, options, controller.signal);
      if (hop.location === undefined) {
        return { url: current.href, status: hop.status, contentType: hop.contentType, body: hop.body };
      }
      if (hops >= maxRedirects) throw new FetchFailedError(`too many redirects (more than ${maxRedirects})`);
      current = checkUrl(new URL(hop.location, current).href, options.allowPrivate);
    }
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (controller.signal.aborted)
      throw new FetchTimeoutError(`fetching ${url} took longer than ${options.timeoutMs} ms`);
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof FetchError) throw cause;
    throw new FetchFailedError(`fetching ${url} failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
