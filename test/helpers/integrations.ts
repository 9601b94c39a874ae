/**
 * Integrations for the API tests: names no other test uses, their API path, a small image and a
 * publish body.
 */
import { newId } from '../../src/lib/ids.js';

/** A name no other test (or test file sharing the PostgreSQL database) uses. */
export const uniqueName = (prefix = 'int') => `${prefix}-${newId(10).toLowerCase()}`;
/** The integration's API path. */
export const url = (name: string) => `/v1/integrations/${name}`;
/** The first bytes of a PNG, base64: an icon or preview image. */
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');

/** A valid publish body for `organization` (an id or hostname), with `extra` fields. */
export function body(organization: string, extra: Record<string, unknown> = {}) {
  return {
    title: 'My integration',
    description: 'Does things',
    scopes: ['space:content:read'],
    script: 'export default {}',
    organization,
    ...extra,
  };
}
