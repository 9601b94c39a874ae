/** The caller's own sessions and access tokens (`/v1/user/sessions`, `/v1/user/tokens`). */
import { Type } from 'typebox';
import { SCOPES } from '../../lib/scopes.js';

export const Session = Type.Object(
  {
    object: Type.Literal('session'),
    id: Type.String(),
    /** The session the request came with. */
    current: Type.Boolean(),
    method: Type.Union([Type.Literal('password'), Type.Literal('oidc'), Type.Literal('saml')]),
    providerId: Type.Optional(Type.String()),
    userAgent: Type.Optional(Type.String()),
    clientAddress: Type.Optional(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: 'When it ends unless used again' }),
  },
  { $id: 'UserSession', title: 'UserSession' },
);

export const ApiToken = Type.Object(
  {
    object: Type.Literal('api-token'),
    id: Type.String(),
    label: Type.Union([Type.String(), Type.Null()]),
    /** null: every right of the user. */
    scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'UserApiToken', title: 'UserApiToken' },
);

export const CreatedApiToken = Type.Object(
  { ...ApiToken.properties, token: Type.String({ description: 'The secret: shown this once' }) },
  { $id: 'CreatedUserApiToken', title: 'CreatedUserApiToken' },
);

export const CreateTokenBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Optional(
      Type.Array(Type.Union(SCOPES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true }),
    ),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export const SessionParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 64 }) });
export const TokenParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 64 }) });
