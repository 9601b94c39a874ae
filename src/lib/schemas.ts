/** TypeBox building blocks shared by every API area. */
import { type TSchema, Type } from 'typebox';
import { WEB_URL_PATTERN } from './safe-url.js';

/** A string enum, emitted as `{type: string, enum: [...]}` (clear errors, clear OpenAPI). */
export function StringEnum<const T extends readonly string[]>(values: T, options: object = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** `T | null` */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Roles, highest first. */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = StringEnum(ROLES, { description: 'Role of a member' });
/** A role on an update payload; null stands for a guest / removal. */
export const RoleOrGuest = Nullable(RoleSchema);

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const TeamRoleSchema = StringEnum(TEAM_ROLES);

export const Timestamp = Type.String({ format: 'date-time' });
export const Url = Type.String({ format: 'uri', maxLength: 2048 });
/** A URL people are sent to (a redirect, a login page): http(s) only, never `javascript:` and the like. */
export const WebUrl = Type.String({ format: 'uri', maxLength: 2048, pattern: WEB_URL_PATTERN });
export const Icon = Type.String({ maxLength: 50 });

/** The body of an operation that answers without content (204). */
export const NoContent = Type.Null({ description: 'No content' });

/** Path parameter objects. */
export const Params = {
  organizationId: Type.String({ minLength: 1 }),
  userId: Type.String({ minLength: 1 }),
  teamId: Type.String({ minLength: 1 }),
};

export const UserSchema = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Type.String() }),
  },
  { $id: 'User' },
);

/**
 * The same User object without the `$id`, for a schema that holds several users (a change request's
 * `createdBy` and `mergedBy`): a `$id` may appear only once in one schema.
 */
export const InlineUserSchema = Type.Object(UserSchema.properties);
