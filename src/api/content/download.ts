/** File downloads: the `downloadURL` of every file serves its bytes to readers of the space. */
import { Type } from 'typebox';
import { loadRevision } from '../../content/store.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import { authorizeSpace } from '../../permissions/content.js';
import { readBlob } from '../../storage/files.js';

export function registerDownload(app: App): void {
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files/:fileId/download',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'downloadFileInRevision',
        tags: ['content'],
        description: 'The bytes of a file, with its content type (the `downloadURL` of a file).',
        params: Type.Object({
          spaceId: Type.String({ minLength: 1 }),
          revisionId: Type.String({ minLength: 1 }),
          fileId: Type.String({ minLength: 1 }),
        }),
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
      },
    },
    async (request, reply) => {
      const { row: space } = await authorizeSpace(
        app.db,
        caller(request).user.id,
        request.params.spaceId,
        'read',
        'read it',
      );
      const snapshot = await loadRevision(app.db, space, request.params.revisionId);
      const file = snapshot?.files.find((f) => f.id === request.params.fileId);
      const bytes = file ? await readBlob(app.db, file.blob) : undefined;
      if (!file || !bytes) throw notFound(`file ${request.params.fileId} not found`);
      const inline = file.contentType.startsWith('image/') && file.contentType !== 'image/svg+xml';
      return (
        reply
          .type(file.contentType)
          .header('content-length', bytes.length)
          .header('x-content-type-options', 'nosniff')
          // Uploaded content never runs as a page of this origin.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header(
            'content-disposition',
            `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
          )
          .send(bytes)
      );
    },
  );
}
