/** `generateStorageUploadURL`: a signed URL to upload one file (received by upload-routes.ts). */
import type { App } from '../../http/app.js';
import { serviceContext } from '../../http/service-context.js';
import { presentUploadUrl } from './present.js';
import { GenerateUploadBody, OrgParams, StorageUploadURL } from './schemas.js';
import { generateUploadUrl } from './service.js';

export default async function storageRoutes(app: App) {
  app.post(
    '/orgs/:organizationId/storage/upload',
    {
      // The web app's editor uploads pasted images through it: editing content is what it serves.
      config: { scope: 'space:write' },
      schema: {
        operationId: 'generateStorageUploadURL',
        tags: ['storage'],
        params: OrgParams,
        body: GenerateUploadBody,
        response: { 201: StorageUploadURL },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(app, request);
      const { row, signature } = await generateUploadUrl(ctx, request.params.organizationId, request.body);
      const presented = presentUploadUrl(row, signature, app.urls);
      reply.code(201).header('location', presented.url);
      return presented;
    },
  );
}
