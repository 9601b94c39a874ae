import { Type } from 'typebox';
import { PageQuery } from '../../../lib/paging.js';
import { Condition, NullableString, ShareKeyQuery } from '../shared/schemas.js';

export const SiteSpacePath = Type.String({ minLength: 1, maxLength: 100 });
export const ListSiteSpacesQuery = Type.Object({
  ...PageQuery,
  ...ShareKeyQuery,
  default: Type.Optional(
    Type.Boolean({ description: 'true: only default site spaces; false: only the others; absent: all' }),
  ),
});

export const AddSiteSpaceBody = Type.Object(
  {
    spaceId: NullableString(
      Type.String({ minLength: 1, description: 'A space of the organization; null creates one' }),
    ),
    sectionId: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const UpdateSiteSpaceBody = Type.Object(
  {
    path: Type.Optional(SiteSpacePath),
    condition: Type.Optional(NullableString(Condition)),
  },
  { additionalProperties: false },
);

const SiteSpacePointer = Type.Object(
  { type: Type.Literal('site-space'), siteSpace: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export const MoveSiteSpaceBody = Type.Object(
  {
    position: Type.Optional(
      Type.Object(
        { before: Type.Optional(SiteSpacePointer), after: Type.Optional(SiteSpacePointer) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** `draft` is accepted: Bindery has no draft site spaces. */
export const DuplicateSiteSpaceBody = Type.Optional(
  Type.Object({ draft: Type.Optional(Type.Boolean({ default: false })) }),
);
