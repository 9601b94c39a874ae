import { Type } from 'typebox';
import { PageQuery } from '../../core/paging.js';
import { inline, NullableString, ShareKeyQuery } from '../sites/schemas.js';
import { Space } from '../spaces/schemas.js';

export const SiteSpacePath = Type.String({ minLength: 1, maxLength: 100 });
/** A visitor condition: a JavaScript expression (checked by `sites/condition.ts`). */
export const Condition = Type.String({ minLength: 1, maxLength: 1024 });

export const SiteSpace = Type.Object(
  {
    object: Type.Literal('site-space'),
    id: Type.String(),
    path: Type.String(),
    section: Type.Optional(Type.String()),
    space: inline(Space),
    title: Type.String(),
    default: Type.Boolean(),
    condition: Type.Optional(Type.String()),
    draft: Type.Boolean(),
    hasAdvancedCustomizationFeature: Type.Boolean(),
    urls: Type.Object({ published: Type.Optional(Type.String()) }),
  },
  { description: 'A space published on a site' },
);

export const SiteSpaceParams = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  siteId: Type.String({ minLength: 1 }),
  siteSpaceId: Type.String({ minLength: 1 }),
});

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
