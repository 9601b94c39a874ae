/** `GET /v1/user`: the authenticated user; `GET`/`PATCH /v1/users/{userId}`: a user by id. */
import { dependsOn } from '../../core/answer-scope.js';
import { userScope } from '../../db/write-scope.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { UserSchema } from '../../lib/schemas.js';
import { presentUser } from './present.js';
import { canSeeUser, findUserById } from './repo.js';
import { UpdateUserBody, UserParams } from './schemas.js';
import { updateUser } from './service.js';

const tags = ['users'];

export default async function userRoutes(app: App) {
  app.get(
    '/user',
    {
      config: { scope: 'user:read', cacheable: true },
      schema: { operationId: 'getAuthenticatedUser', tags, response: { 200: UserSchema } },
    },
    async (request) => {
      const { user } = caller(request);
      // Only the caller's row, which only global writes change (core/answer-scope.ts).
      dependsOn(userScope(user.id));
      return presentUser(user, app.urls);
    },
  );

  app.get(
    '/users/:userId',
    {
      config: { scope: 'user:read', cacheable: true },
      schema: { operationId: 'getUserById', tags, params: UserParams, response: { 200: UserSchema } },
    },
    async (request) => {
      const { userId } = request.params;
      // The two users' memberships decide; the row itself changes only by global writes.
      dependsOn(userScope(caller(request).user.id), userScope(userId));
      // Someone who shares no organization with the caller does not exist for them.
      const user = (await canSeeUser(app.db, caller(request).user.id, userId))
        ? await findUserById(app.db, userId)
        : undefined;
      if (!user) throw notFound(`user ${userId} not found`);
      return presentUser(user, app.urls);
    },
  );

  app.patch(
    '/users/:userId',
    {
      config: { scope: 'user:write' },
      schema: {
        operationId: 'updateUserById',
        tags,
        params: UserParams,
        body: UpdateUserBody,
        response: { 200: UserSchema },
      },
    },
    async (request) =>
      presentUser(await updateUser(serviceContext(app, request), request.params.userId, request.body), app.urls),
  );
}
