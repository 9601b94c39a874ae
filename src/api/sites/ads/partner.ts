/**
 * The partner key of the ads operations: sent in `X-Service-Partner-Key` (the official client's
 * `X-GitBook-Partner-Key` is accepted too), checked against `PARTNER_KEYS` in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../../lib/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** 401 when no key is sent, 403 when it is not one of `keys`. */
export function requirePartnerKey(request: FastifyRequest, keys: readonly string[]): void {
  const header = request.headers['x-service-partner-key'] ?? request.headers['x-gitbook-partner-key'];
  const sent = Array.isArray(header) ? header[0] : header;
  if (!sent) throw unauthorized('the X-Service-Partner-Key header is required');
  // Comparing digests keeps the comparison constant-time whatever the lengths.
  const sentDigest = digest(sent);
  let match = false;
  for (const key of keys) match = timingSafeEqual(sentDigest, digest(key)) || match;
  if (!match) throw forbidden('the partner key is not valid');
}
