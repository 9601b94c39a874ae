/** The caller's own sign-in: `GET|DELETE /v1/user/sessions…`, `GET|POST|DELETE /v1/user/tokens…`. */
import { sessionPolicy } from '../../auth/sessions.js';
import { listSessions } from '../../core/sessions.js';
import { findToken } from '../../core/tokens.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { ListQuery, PagedList, paginateArray } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { presentApiToken, presentSession } from './present.js';
import { listTokensOfUser } from './repo.js';
import { ApiToken, CreatedApiToken, CreateTokenBody, Session, SessionParams, TokenParams } from './schemas.js';
import { createUserToken, revokeSession, revokeUserToken } from './service.js';

const tags = ['users'];

export default async function userSessionRoutes(app: App) {
  const policy = sessionPolicy(app.config);

  app.get(
    '/user/sessions',
    {
      config: { scope: 'user:read' },
      schema: { operationId: 'listUserSessions', tags, querystring: ListQuery, response: { 200: PagedList(Session) } },
    },
    async (request) => {
      const auth = caller(request);
      const rows = await listSessions(app.db, auth.user.id, policy);
      const items = rows.map((row) => presentSession(row, auth.sessionId ?? null, policy));
      return paginateArray(items, (s) => s.id, request.query);
    },
  );

  app.delete(
    '/user/sessions/:sessionId',
    {
      config: { scope: 'user:read' },
      schema: { operationId: 'revokeUserSession', tags, params: SessionParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await revokeSession(serviceContext(app, request), request.params.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/user/tokens',
    {
      config: { scope: 'user:read' },
      schema: { operationId: 'listUserTokens', tags, querystring: ListQuery, response: { 200: PagedList(ApiToken) } },
    },
    async (request) => {
      const rows = await listTokensOfUser(app.db, caller(request).user.id);
      return paginateArray(rows.map(presentApiToken), (t) => t.id, request.query);
    },
  );

  app.post(
    '/user/tokens',
    {
      config: { scope: 'user:read' },
      schema: { operationId: 'createUserToken', tags, body: CreateTokenBody, response: { 201: CreatedApiToken } },
    },
    async (request, reply) => {
      const created = await createUserToken(serviceContext(app, request), caller(request).scopes, request.body);
      const row = await findToken(app.db, created.id);
      return reply.code(201).send({ ...presentApiToken(row as NonNullable<typeof row>), token: created.token });
    },
  );

  app.delete(
    '/user/tokens/:tokenId',
    {
      config: { scope: 'user:read' },
      schema: { operationId: 'revokeUserToken', tags, params: TokenParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await revokeUserToken(serviceContext(app, request), caller(request).scopes, request.params.tokenId);
      return reply.code(204).send(null);
    },
  );
}
