import { Type } from 'typebox';
import { Params, Url } from '../../lib/schemas.js';

export const UserParams = Type.Object({ userId: Params.userId });

/** The official body of `updateUserById`: at least one of the two. */
export const UpdateUserBody = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    photoURL: Type.Optional(Url),
  },
  { additionalProperties: false, minProperties: 1 },
);
