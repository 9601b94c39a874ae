import { Type } from 'typebox';
import { PageQuery } from '../../../lib/paging.js';
import { Timestamp } from '../../../lib/schemas.js';

export const ShareLinkName = Type.String({ maxLength: 50 });

export const ShareLink = Type.Object(
  {
    object: Type.Literal('share-link'),
    id: Type.String(),
    createdAt: Timestamp,
    name: Type.String(),
    active: Type.Boolean(),
    /** `published` carries the link's secret key: this is the only place it appears. */
    urls: Type.Object({ published: Type.String() }),
  },
  { $id: 'ShareLink' },
);

const Id = Type.String({ minLength: 1 });
export const ShareLinkParams = Type.Object({ organizationId: Id, siteId: Id, shareLinkId: Id });
export const ListShareLinksQuery = Type.Object(PageQuery);
export const CreateShareLinkBody = Type.Object({ name: ShareLinkName }, { additionalProperties: false });
export const UpdateShareLinkBody = Type.Object(
  { active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) },
  { additionalProperties: false, minProperties: 1 },
);
