/** `GET /v1/user`: the authenticated user. */
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { UserSchema } from '../../lib/schemas.js';
import { presentUser } from './present.js';

export default async function userRoutes(app: App) {
  app.get(
    '/user',
    {
      config: { scope: 'user:read', cacheable: true },
      schema: { operationId: 'getAuthenticatedUser', tags: ['users'], response: { 200: UserSchema } },
    },
    async (request) => presentUser(caller(request).user, app.urls),
  );
}
