/**
 * generateStorageUploadURL and the signed URL it returns: one PUT of the bytes without a token
 * (signature, expiry, declared type and size, single use), then the file inserted into a change
 * request by its key (`storageKey`) and merged into the space's files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/storage/files.js';
import { createHarness, type Harness, PUBLIC_URL, type SpaceWorld } from '../helpers/app.js';
import { recorded } from '../helpers/audit.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const uploadUrl = (orgId: string) => `/v1/orgs/${orgId}/storage/upload`;

async function generate(ctx: { orgId: string; admin: SpaceWorld['admin'] }, file: object, kind = 'organization_file') {
  return ctx.admin.client.post(uploadUrl(ctx.orgId), { file, kind });
}

/** PUTs `bytes` to a URL the API returned (an absolute URL under PUBLIC_URL), with no token. */
async function put(url: string, bytes: Buffer, contentType = 'image/png') {
  const res = await h.app.inject({
    method: 'PUT',
    url: url.slice(PUBLIC_URL.length),
    headers: { 'content-type': contentType },
    payload: bytes,
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

async function pngUpload(ctx: SpaceWorld, size = PNG.length) {
  const res = await generate(ctx, { name: 'paste.png', type: 'image/png', size });
  expect(res.status).toBe(201);
  return res.body as { object: string; url: string; key: string };
}

describe('generateStorageUploadURL', () => {
  it('answers a signed Bindery URL (201); one PUT without a token stores the file; insert_files takes its key', async () => {
    const ctx = await h.space();
    const res = await generate(ctx, { name: 'paste.png', type: 'image/png', size: PNG.length });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'storage-signed-url', url: expect.any(String), key: expect.any(String) });
    expect(res.headers.location).toBe(res.body.url);
    expect(res.body.url).toMatch(new RegExp(`^${PUBLIC_URL}/storage/uploads/${res.body.key}\\?signature=[\\w-]+$`));
    const created = await recorded(ctx.admin.client, ctx.orgId, 'storage.upload_created', {
      actor: ctx.admin.user.id,
      target: { type: 'storage-upload', id: res.body.key },
    });
    expect(JSON.stringify(created.payload)).not.toContain('signature');

    expect(await put(res.body.url, PNG)).toEqual({ status: 204, body: null });
    const completed = await recorded(ctx.admin.client, ctx.orgId, 'storage.upload_completed', {
      actor: ctx.admin.user.id,
      target: { type: 'storage-upload', id: res.body.key },
    });
    expect(completed.payload.object).toMatchObject({
      file: { name: 'paste.png', type: 'image/png', size: PNG.length },
    });

    const cr = await newChangeRequest(ctx);
    const inserted = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_files', files: [{ ref: 'img', name: 'pasted.png', storageKey: res.body.key }] },
        { operation: 'insert_page', title: 'Shot', document: { markdown: '![shot](./img)' } },
      ],
      '?compat=false',
    );
    expect(inserted.status).toBe(200);
    const file = inserted.body.insertedFiles[0];
    expect(file).toMatchObject({ name: 'pasted.png', contentType: 'image/png', size: PNG.length });
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const files = await ctx.admin.client.get(`${ctx.base}/content/files`);
    expect(files.body.items.map((f: { id: string; name: string }) => [f.id, f.name])).toEqual([
      [file.id, 'pasted.png'],
    ]);
    const download = files.body.items[0].downloadURL as string;
    const bytes = await h.app.inject({
      method: 'GET',
      url: download.slice(PUBLIC_URL.length),
      headers: { authorization: `Bearer ${ctx.admin.token}` },
    });
    expect([bytes.statusCode, bytes.headers['content-type']]).toEqual([200, 'image/png']);
    expect(Buffer.compare(bytes.rawPayload, PNG)).toBe(0);
  });

  it('holds the PUT to the declared size: exactly it passes, one byte more is 413 (and the URL stays unused)', async () => {
    const ctx = await h.space();
    const exact = await pngUpload(ctx, 5);
    expect((await put(exact.url, Buffer.from('12345'))).status).toBe(204);
    const over = await pngUpload(ctx, 5);
    const refused = await put(over.url, Buffer.from('123456'));
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toContain('declared size of 5 bytes');
    // Nothing was stored: the URL still takes a body that fits.
    expect((await put(over.url, Buffer.from('1234'))).status).toBe(204);
  });

  it('refuses a second PUT (409), an expired URL (410), a tampered signature (403), another type (415), an unknown key (404)', async () => {
    const ctx = await h.space();
    const used = await pngUpload(ctx);
    expect((await put(used.url, PNG)).status).toBe(204);
    const again = await put(used.url, PNG);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('already sent');

    const expired = await pngUpload(ctx);
    await h.db
      .updateTable('storage_uploads')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.key)
      .execute();
    const late = await put(expired.url, PNG);
    expect(late.status).toBe(410);
    expect(late.body.error.message).toContain('expired');

    const fresh = await pngUpload(ctx);
    const signature = new URL(fresh.url).searchParams.get('signature') as string;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect((await put(fresh.url.replace(signature, flipped), PNG)).status).toBe(403);
    expect((await put(fresh.url.replace(/\?.*$/, ''), PNG)).status).toBe(403);
    // Another upload's signature does not open this one.
    const other = await pngUpload(ctx);
    const otherSignature = new URL(other.url).searchParams.get('signature') as string;
    expect((await put(fresh.url.replace(signature, otherSignature), PNG)).status).toBe(403);

    const wrongType = await put(fresh.url, PNG, 'image/jpeg');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.message).toContain('image/png');
    // Parameters of the type and its case do not matter.
    expect((await put(fresh.url, PNG, 'Image/PNG; charset=binary')).status).toBe(204);
    expect((await put(`${PUBLIC_URL}/storage/uploads/nope?signature=x`, PNG)).status).toBe(404);
  });

  it('validates the body: sizes 1 to the file limit, a MIME type, a known kind (400 naming the field)', async () => {
    const ctx = await h.space();
    const cases: Array<[object, string, number]> = [
      [{ name: 'a.png', type: 'image/png', size: 0 }, 'organization_file', 400],
      [{ name: 'a.png', type: 'image/png', size: 1 }, 'organization_file', 201],
      [{ name: 'a.png', type: 'image/png', size: MAX_FILE_BYTES }, 'import_file', 201],
      [{ name: 'a.png', type: 'image/png', size: MAX_FILE_BYTES + 1 }, 'organization_file', 400],
      [{ name: 'a.png', type: 'png', size: 10 }, 'organization_file', 400],
      [{ name: '', type: 'image/png', size: 10 }, 'organization_file', 400],
      [{ name: 'a.woff2', type: 'font/woff2', size: 10 }, 'customization_font', 201],
      [{ name: 'a.png', type: 'image/png', size: 10 }, 'avatar', 400],
    ];
    for (const [file, kind, status] of cases) {
      const res = await generate(ctx, file, kind);
      expect([file, kind, res.status]).toEqual([file, kind, status]);
      if (status === 400) expect(res.body.error.message).toMatch(/file|kind/);
    }
    expect(
      (await ctx.admin.client.post(uploadUrl(ctx.orgId), { file: { name: 'a', type: 'a/b', size: 1 } })).status,
    ).toBe(400);
  });

  it('is for members: 401 without a token, 404 outside the organization, 403 without the space:write scope', async () => {
    const ctx = await h.space();
    const body = { file: { name: 'a.png', type: 'image/png', size: 10 }, kind: 'organization_file' };
    expect((await h.anonymous.post(uploadUrl(ctx.orgId), body)).status).toBe(401);
    const outsider = await h.user();
    expect((await outsider.client.post(uploadUrl(ctx.orgId), body)).status).toBe(404);
    const guest = await h.member(ctx.orgId, null);
    expect((await guest.client.post(uploadUrl(ctx.orgId), body)).status).toBe(404);
    const reader = await h.member(ctx.orgId, 'read');
    expect((await reader.client.post(uploadUrl(ctx.orgId), body)).status).toBe(201);
    const readOnly = await h.member(ctx.orgId, 'admin', { scopes: ['space:read'] });
    expect((await readOnly.client.post(uploadUrl(ctx.orgId), body)).status).toBe(403);
  });

  it('a URL stops working when its member leaves the organization (404)', async () => {
    const ctx = await h.space();
    const member = await h.member(ctx.orgId, 'edit');
    const res = await member.client.post(uploadUrl(ctx.orgId), {
      file: { name: 'a.png', type: 'image/png', size: PNG.length },
      kind: 'organization_file',
    });
    expect((await ctx.admin.client.delete(`/v1/orgs/${ctx.orgId}/members/${member.user.id}`)).status).toBe(204);
    expect((await put(res.body.url, PNG)).status).toBe(404);
  });

  it("insert_files: another organization's key is 404, a key not yet sent 409, with url or base64 400", async () => {
    const ctx = await h.space();
    const elsewhere = await h.space();
    const foreign = await pngUpload(elsewhere);
    expect((await put(foreign.url, PNG)).status).toBe(204);
    const cr = await newChangeRequest(ctx);
    const insert = (file: object) => batch(ctx, cr.id, [{ operation: 'insert_files', files: [file] }]);

    const notHers = await insert({ name: 'x.png', storageKey: foreign.key });
    expect(notHers.status).toBe(404);
    expect(notHers.body.error.message).toContain('storageKey');
    expect((await insert({ name: 'x.png', storageKey: 'unknown' })).status).toBe(404);
    const pending = await pngUpload(ctx);
    const unsent = await insert({ name: 'x.png', storageKey: pending.key });
    expect(unsent.status).toBe(409);
    expect(unsent.body.error.message).toContain('not been sent');
    const both = await insert({ name: 'x.png', storageKey: pending.key, base64: 'aGk=', contentType: 'text/plain' });
    expect(both.status).toBe(400);
    // Nothing was inserted by the refused batches.
    const files = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/files`);
    expect(files.body.items).toEqual([]);
  });
});
