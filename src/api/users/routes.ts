/** `GET /v1/user`: the authenticated user. */
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { UserSchema } from '../../core/schemas.js';
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
