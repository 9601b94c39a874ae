/**
 * Outbound HTTP for every URL a user hands us (OpenAPI sources and their referenced files, later
 * content imports). A user-given URL must not turn the server into a probe of the network it runs
 * in, so unless `fetchAllowPrivate` is set:
 * - only http and https are fetched;
 * - every address a host name resolves to is checked at connection time (a custom `lookup`, so a
 *   DNS answer cannot change between the check and the connection) and private, loopback,
 *   link-local, unique-local, multicast and otherwise non-public addresses are refused;
 * - redirects are followed by hand (at most 5) and every hop is checked again (webhooks follow none).
 * Every fetch has a deadline covering all hops and a cap on the (decompressed) body size.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

export interface GuardedFetchOptions {
  /** Allow private/loopback/link-local destinations (config `fetchAllowPrivate`). */
  allowPrivate: boolean;
  /** Deadline of the whole fetch, redirects included. */
  timeoutMs: number;
  /** Largest body accepted, after decompression. */
  maxBytes: number;
  /** Default 5. */
  maxRedirects?: number;
  /**
   * Default true. False: a redirect is the answer (a {@link FetchStatusError} with its status), as
   * for webhooks, whose receiver is the URL registered and nothing it points to.
   */
  followRedirects?: boolean;
  /** Default GET. */
  method?: 'GET' | 'POST';
  /** Sent as the request body (with a POST). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Aborts the fetch (e.g. on shutdown); ends in {@link FetchAbortedError}. */
  signal?: AbortSignal;
}

export interface FetchedResource {
  /** The URL finally fetched, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  body: Buffer;
}

/** A stable code per kind of failure, for callers that report it (imports, processing errors). */
export type FetchErrorCode = 'FETCH_TIMEOUT' | 'FETCH_TOO_LARGE' | 'FETCH_FORBIDDEN_ADDRESS' | 'FETCH_FAILED';

/** Any failure to fetch; the subclasses say which. */
export class FetchError extends Error {
  readonly code: FetchErrorCode = 'FETCH_FAILED';
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}
export class FetchTimeoutError extends FetchError {
  override name = 'FetchTimeoutError';
  override readonly code = 'FETCH_TIMEOUT';
}
export class FetchTooLargeError extends FetchError {
  override name = 'FetchTooLargeError';
  override readonly code = 'FETCH_TOO_LARGE';
}
export class FetchForbiddenAddressError extends FetchError {
  override name = 'FetchForbiddenAddressError';
  override readonly code = 'FETCH_FORBIDDEN_ADDRESS';
}
export class FetchStatusError extends FetchError {
  override name = 'FetchStatusError';
  constructor(
    message: string,
    url: string,
    readonly status: number,
  ) {
    super(message, url);
  }
}
/** The caller's signal aborted the fetch: not the remote side's fault. */
export class FetchAbortedError extends FetchError {
  override name = 'FetchAbortedError';
}

// --- Address classification -------------------------------------------------------------------

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

/** IPv4 ranges that are not the public internet (IANA special-purpose registry). */
const FORBIDDEN_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const FORBIDDEN_V4_RANGES = FORBIDDEN_V4.map(([base, prefix]) => [ipv4ToInt(base) as number, prefix] as const);

function forbiddenV4(value: number): boolean {
  return FORBIDDEN_V4_RANGES.some(([base, prefix]) => (value ^ base) >>> (32 - prefix) === 0);
}

/** The eight 16-bit groups of a valid IPv6 address (zone id ignored, embedded IPv4 expanded). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.split('%')[0] ?? '';
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) !== -1) {
    const v4 = ipv4ToInt(text.slice(lastColon + 1));
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

function forbiddenV6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => forbiddenV4(hi * 65536 + lo);
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return embedded(g6, g7); // IPv4-mapped
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7); // NAT64
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  if (g0 < 0x0100) return true; // ::/8: unspecified, loopback, IPv4-compatible, local NAT64, reserved
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only
  if (g0 === 0x2001 && g1 < 0x0200) return true; // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique-local
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return true; // link-local, old site-local
  return (g0 & 0xff00) === 0xff00; // multicast
}

/**
 * Whether `address` (an IPv4 or IPv6 literal) is anything but a public unicast address: private,
 * loopback, link-local, unique-local, multicast, reserved, or an IPv6 form embedding such an IPv4
 * address. Anything unparsable counts as forbidden.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const kind = net.isIP(bare.split('%')[0] ?? '');
  if (kind === 4) return forbiddenV4(ipv4ToInt(bare) as number);
  if (kind === 6) {
    const groups = ipv6Groups(bare);
    return groups === null || forbiddenV6(groups);
  }
  return true;
}

// --- Fetching ---------------------------------------------------------------------------------

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Parses `raw` as an http(s) URL; {@link FetchError} otherwise. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError(`"${raw}" is not a valid URL`, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // Another scheme reaches something other than a web server (a file, a socket): refused like a private address.
    throw new FetchForbiddenAddressError(`only http and https URLs can be fetched, not ${url.protocol}`, raw);
  }
  return url;
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function refuse(url: string, address: string): FetchForbiddenAddressError {
  return new FetchForbiddenAddressError(`${url} resolves to ${address}, a private or reserved address`, url);
}

/**
 * Checks `raw` up front (scheme, and the addresses its host resolves to), so an API call can refuse
 * a forbidden URL at once instead of failing later in a job. A host that does not resolve is not
 * refused here: the fetch itself will report it. The fetch checks again at connection time.
 */
export async function assertFetchableUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = parseHttpUrl(raw);
  if (allowPrivate) return url;
  const host = bareHost(url);
  if (net.isIP(host)) {
    if (isForbiddenAddress(host)) throw refuse(raw, host);
    return url;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return url;
  }
  const bad = addresses.find((a) => isForbiddenAddress(a.address));
  if (bad) throw refuse(raw, bad.address);
  return url;
}

/** A `lookup` for http.request that refuses forbidden addresses, so the address checked is the one used. */
function guardedLookup(url: string): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address));
      if (bad) return callback(refuse(url, bad.address), '', 0);
      const first = list[0];
      if (!first) return callback(new FetchError(`${hostname} has no address`, url), '', 0);
      // With `all`, Node expects the whole list; the callback's declared type only covers one address.
      if ((options as dns.LookupOptions).all) {
        return (callback as unknown as (e: null, addresses: dns.LookupAddress[]) => void)(null, list);
      }
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The address guard for a connection made by another HTTP client (Git's smart HTTP): throws for a
 * forbidden literal address, and returns the `lookup` that refuses forbidden resolved addresses.
 * The URL must already have passed {@link parseHttpUrl}.
 */
export function guardConnection(url: URL, allowPrivate: boolean): { lookup?: net.LookupFunction } {
  if (allowPrivate) return {};
  const host = bareHost(url);
  if (net.isIP(host) && isForbiddenAddress(host)) throw refuse(url.href, host);
  return { lookup: guardedLookup(url.href) };
}

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Readable;
}

function requestOnce(url: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const request = lib.request(url, {
      method: options.method ?? 'GET',
      agent: false,
      signal,
      headers: { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Bindery', ...options.headers },
      ...(options.allowPrivate ? {} : { lookup: guardedLookup(url.href) }),
    });
    request.on('response', (response) =>
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

function decoded(hop: Hop): Readable {
  const encoding = String(hop.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return hop.body.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return hop.body.pipe(zlib.createInflate());
  if (encoding === 'br') return hop.body.pipe(zlib.createBrotliDecompress());
  return hop.body;
}

async function readCapped(stream: Readable, url: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new FetchTooLargeError(`${url} is larger than ${maxBytes} bytes`, url);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** GETs (or POSTs) `raw` under the guard described at the top of this file. */
export async function guardedFetch(raw: string, options: GuardedFetchOptions): Promise<FetchedResource> {
  const maxRedirects = options.maxRedirects ?? 5;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout.signal, options.signal]) : timeout.signal;
  let url = parseHttpUrl(raw);
  try {
    for (let hop = 0; ; hop++) {
      if (!options.allowPrivate && net.isIP(bareHost(url)) && isForbiddenAddress(bareHost(url))) {
        // The custom lookup is not consulted for literal addresses.
        throw refuse(url.href, bareHost(url));
      }
      const response = await requestOnce(url, options, signal);
      const location = response.headers.location;
      if (REDIRECTS.has(response.status) && location && options.followRedirects !== false) {
        response.body.resume();
        if (hop >= maxRedirects) throw new FetchError(`${raw} redirects more than ${maxRedirects} times`, raw);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new FetchError(`${url.href} redirects to an invalid URL`, raw);
        }
        url = parseHttpUrl(next.href);
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        response.body.resume();
        throw new FetchStatusError(`${url.href} answered HTTP ${response.status}`, url.href, response.status);
      }
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length > options.maxBytes) {
        response.body.destroy();
        throw new FetchTooLargeError(`${url.href} is larger than ${options.maxBytes} bytes`, url.href);
      }
      const body = await readCapped(decoded(response), url.href, options.maxBytes);
      return { url: url.href, status: response.status, contentType: response.headers['content-type'] ?? null, body };
    }
  } catch (error) {
    if (options.signal?.aborted) throw new FetchAbortedError(`fetching ${raw} was cancelled`, raw);
    if (timeout.signal.aborted) {
      throw new FetchTimeoutError(`${raw} did not answer within ${options.timeoutMs} ms`, raw);
    }
    if (error instanceof FetchError) throw error;
    const cause = error as NodeJS.ErrnoException;
    throw new FetchError(`could not fetch ${url.href}: ${cause.code ?? cause.message}`, url.href);
  } finally {
    clearTimeout(timer);
  }
}
