import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { Params } from '../../lib/schemas.js';
import { DefaultLevel, MoveBody } from '../spaces/schemas.js';

export const CollectionTitle = Type.String({ maxLength: 50 });
export const CollectionDescription = Type.String({ maxLength: 100 });

export const Collection = Type.Object(
  {
    object: Type.Literal('collection'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    organization: Type.String(),
    parent: Type.Optional(Type.String()),
    defaultLevel: DefaultLevel,
    urls: Type.Object({ location: Type.String(), app: Type.String() }),
    permissions: Type.Object({
      view: Type.Boolean(),
      admin: Type.Boolean(),
      viewInviteLinks: Type.Boolean(),
      create: Type.Boolean(),
    }),
  },
  { $id: 'Collection' },
);

export const CollectionParams = Type.Object({ collectionId: Type.String({ minLength: 1 }) });
export const OrgParams = Type.Object({ organizationId: Params.organizationId });

export const CreateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    description: Type.Optional(CollectionDescription),
    parent: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const UpdateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    description: Type.Optional(CollectionDescription),
    defaultLevel: Type.Optional(DefaultLevel),
  },
  { additionalProperties: false },
);

export const ListCollectionsQuery = Type.Object({
  ...PageQuery,
  nested: Type.Optional(Type.Boolean({ default: true, description: 'List nested collections too' })),
});

export const MoveCollectionBody = MoveBody;
export const TransferBody = Type.Object(
  { organization: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
