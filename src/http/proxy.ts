/**
 * Which peers' `X-Forwarded-*` headers are believed: those `TRUST_PROXY` trusts, in one place for
 * Fastify (its `trustProxy` option, behind `request.ip`, `request.host` and `request.protocol`), the
 * response cache's front door and the published sites (their host and scheme). A header from any
 * other peer is the client's own word and is ignored.
 */
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';

export type TrustFunction = (address: string, hop: number) => boolean;
export type TrustProxy = boolean | string[] | TrustFunction;

/** Fastify's `trustProxy` option: its types take a hop count as a function (what it makes of a number). */
export function trustProxyOption(trust: Config['trustProxy']): TrustProxy {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/** The trust function Fastify makes of its `trustProxy` option (lib/request.js); null for none. */
export function trustFunction(trust: TrustProxy): TrustFunction | null {
  if (trust === false) return null;
  if (trust === true) return () => true;
  return typeof trust === 'function' ? trust : proxyAddr.compile(trust);
}

/** Whether the peer that sent `socket`'s request is a trusted proxy (its `X-Forwarded-*` believed). */
export function fromTrustedProxy(
  trusted: TrustFunction | null,
  socket: { remoteAddress?: string | undefined },
): boolean {
  return trusted !== null && socket.remoteAddress !== undefined && trusted(socket.remoteAddress, 0);
}
