/**
 * `PUT /storage/uploads/{key}?signature=…`: the URL `generateStorageUploadURL` returns, outside
 * `/v1` because it takes no access token (the signature stands for the member who asked for it).
 * The body is the file's bytes, of any type: this route reads the request stream itself (no body
 * parser, so no JSON parsing and no app-wide body limit; the upload's declared size is the limit).
 */
import type { App } from '../../http/app.js';
import { NoContent } from '../../lib/schemas.js';
import { UploadParams, UploadQuery } from './schemas.js';
import { receiveUpload } from './service.js';

export default async function uploadRoutes(app: App) {
  app.removeAllContentTypeParsers();
  // Leaves the body unread and unset: a stream as `request.body` would be walked by the plugins that
  // read bodies (the NUL check of src/http/validation.ts follows its socket without end).
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.put(
    '/storage/uploads/:key',
    {
      config: { public: true },
      schema: { hide: true, params: UploadParams, querystring: UploadQuery, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await receiveUpload({ db: app.db, urls: app.urls }, request.params.key, {
        signature: request.query.signature,
        contentType: request.headers['content-type'],
        // No body parser read it: the request stream is unread.
        body: request.raw,
      });
      return reply.code(204).send(null);
    },
  );
}
