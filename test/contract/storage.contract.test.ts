/**
 * Contract test of generateStorageUploadURL through the official `@gitbook/api` client, answers
 * validated against the official schemas; then the returned URL takes the file's bytes (Bindery's
 * own upload URL: the details are in test/api/storage-uploads.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { official } from './official.js';
import { contractServer, newOrg, newOutsider, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

describe('storage', () => {
  it('generateStorageUploadURL (201): a URL that takes one PUT of the declared file', async () => {
    const { id, api } = await newOrg();
    const bytes = Buffer.from('GIF89a');
    const res = await expectConforms(
      'generateStorageUploadURL',
      api.orgs.generateStorageUploadUrl(id, {
        file: { name: 'pixel.gif', type: 'image/gif', size: bytes.length },
        kind: official.StorageUploadKind.OrganizationFile,
      }),
      201,
    );
    expect(res.data.object).toBe('storage-signed-url');
    // The URL is under the server's PUBLIC_URL; the same path on the listening server.
    const url = new URL(res.data.url);
    const put = await fetch(`${contractServer().endpoint}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/gif' },
      body: bytes,
    });
    expect(put.status).toBe(204);
  });

  it('answers 400 for a bad body and 404 outside the organization (Error schema)', async () => {
    const { id, api } = await newOrg();
    await expectApiError(
      'generateStorageUploadURL',
      api.orgs.generateStorageUploadUrl(id, {
        file: { name: 'a.gif', type: 'image/gif', size: 0 },
        kind: official.StorageUploadKind.OrganizationFile,
      }),
      400,
    );
    const outsider = await newOutsider();
    await expectApiError(
      'generateStorageUploadURL',
      outsider.api.orgs.generateStorageUploadUrl(id, {
        file: { name: 'a.gif', type: 'image/gif', size: 1 },
        kind: official.StorageUploadKind.OrganizationFile,
      }),
      404,
    );
  });

  it('validated every operation of this area', () => {
    expectOperationsCovered(['generateStorageUploadURL']);
  });
});
