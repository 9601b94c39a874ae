/**
 * Imports of crafted sources, through HTTP: a .zip whose entry inflates far beyond the size it
 * declares, a .docx whose image part inflates beyond the package limit (both 413, naming the
 * limit), and a website whose links all 404 (the crawler stops at its request limit).
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCX_LIMITS } from '../../src/content/importers/docx.js';
import { WEBSITE_LIMITS } from '../../src/content/importers/website.js';
import { MAX_UNZIPPED_BYTES } from '../../src/content/importers/zip.js';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { buildDocx, type Site, serve } from '../helpers/fixtures.js';

let h: Harness;
let site: Site;
const LINKS = 150;

beforeAll(async () => {
  h = await createHarness({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  const links = Array.from({ length: LINKS }, (_, i) => `<a href="/missing/${i}">${i}</a>`).join(' ');
  site = await serve({
    '/': [200, 'text/html', `<html><head><title>Home</title></head><body><p>${links}</p></body></html>`],
  });
});
afterAll(async () => {
  await site?.close();
  await h?.close();
});

async function importInto(source: string, url: string) {
  const org = await h.org();
  const admin: TestUser = org.admin;
  const space = await admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Imports' });
  const cr = await admin.client.post(`/v1/spaces/${space.body.id}/change-requests`, { subject: 'Import' });
  return admin.client.post(`/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content/import`, {
    source,
    url,
  });
}

const dataUri = (type: string, bytes: Uint8Array) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

/** Zeros, compressed about a thousand to one. */
const zeros = (bytes: number) => new Uint8Array(bytes);

/** The archive with every entry's uncompressed size (local header and central directory) set to `size`. */
function declareSize(zip: Uint8Array, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let at = out.indexOf('PK\x03\x04'); at >= 0; at = out.indexOf('PK\x03\x04', at + 4)) {
    out.writeUInt32LE(size, at + 22);
  }
  for (let at = out.indexOf('PK\x01\x02'); at >= 0; at = out.indexOf('PK\x01\x02', at + 4)) {
    out.writeUInt32LE(size, at + 24);
  }
  return out;
}

describe('import bombs', () => {
  it('refuses a .zip whose entry inflates beyond its declared size and the archive limit (413)', async () => {
    const zip = zipSync({
      'README.md': strToU8('# Small\n'),
      'zeros.bin': zeros(MAX_UNZIPPED_BYTES + 1024 * 1024),
    });
    const lying = declareSize(zip, 100);
    // As declared, the archive is tiny.
    expect(lying.length).toBeLessThan(MAX_UNZIPPED_BYTES / 100);
    const res = await importInto('zip', dataUri('application/zip', lying));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: 413,
      message: `the archive unpacks to more than ${MAX_UNZIPPED_BYTES} bytes`,
    });
    const garbage = await importInto('zip', dataUri('application/zip', strToU8('not a zip at all')));
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.message).toBe('the archive is not a readable .zip archive');
  });

  it('refuses a .docx whose image part inflates beyond the package limit (413)', async () => {
    const parts = unzipSync(buildDocx());
    parts['word/media/pixel.png'] = zeros(DOCX_LIMITS.maxBytes + 1024 * 1024);
    const res = await importInto('docx', dataUri('application/octet-stream', zipSync(parts)));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: 413,
      message: `the .docx document unpacks to more than ${DOCX_LIMITS.maxBytes} bytes`,
    });
    // Within the limit the same document imports.
    expect((await importInto('docx', dataUri('application/octet-stream', buildDocx()))).status).toBe(200);
  });

  it('counts failed fetches toward the crawler request limit', async () => {
    expect(LINKS).toBeGreaterThan(WEBSITE_LIMITS.maxRequests);
    site.hits.length = 0;
    const res = await importInto('website', `${site.url}/`);
    expect(res.status).toBe(200);
    // Every link was found, one page imported, and no more pages requested than the limit.
    expect(res.body).toMatchObject({ totalResources: LINKS + 1, importedResources: 1 });
    const pageRequests = site.hits.filter((path) => path !== '/robots.txt');
    expect(pageRequests).toHaveLength(WEBSITE_LIMITS.maxRequests);
    expect(pageRequests[0]).toBe('/');
  });
});
