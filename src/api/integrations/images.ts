/** Icons and preview images arrive as base64; they are decoded, capped and stored as bytes. */
import { badRequest } from '../../lib/errors.js';
import type { Image } from './repo.js';
import { MAX_IMAGE_BYTES } from './schemas.js';

const SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
];

/**
 * The content type of raster images we recognize by their first bytes; anything else (SVG included,
 * which could carry script) is served as `application/octet-stream`.
 */
export function sniffImageType(data: Buffer): string {
  for (const [type, bytes] of SIGNATURES) {
    if (bytes.every((b, i) => data[i] === b)) return type;
  }
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return 'application/octet-stream';
}

/** Decodes one base64 image of `field`; 400 when it is not base64 or decodes to more than the cap. */
export function decodeImage(value: string, field: string, slot: string): Image {
  const data = Buffer.from(value, 'base64');
  if (data.length === 0 || data.toString('base64').replace(/=+$/, '') !== value.replace(/=+$/, '')) {
    throw badRequest(`${field} is not valid base64`);
  }
  if (data.length > MAX_IMAGE_BYTES) throw badRequest(`${field} must decode to at most ${MAX_IMAGE_BYTES} bytes`);
  return { slot, contentType: sniffImageType(data), data };
}
