import { Type } from 'typebox';
import { PageQuery } from '../../../lib/paging.js';
import { Icon, StringEnum } from '../../../lib/schemas.js';
import { Condition, NullableString, ShareKeyQuery } from '../shared/schemas.js';

export const SectionTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SectionPath = Type.String({ minLength: 1, maxLength: 100 });
export const SectionDescription = Type.String({ maxLength: 256 });
export const GroupTitle = Type.String({ minLength: 1, maxLength: 100 });

const Id = Type.String({ minLength: 1 });

export const SectionParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionId: Id });
export const GroupParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionGroupId: Id });
export const GroupSectionParams = Type.Object({
  organizationId: Id,
  siteId: Id,
  siteSectionGroupId: Id,
  siteSectionId: Id,
});

export const ListSectionsQuery = Type.Object({ ...PageQuery, ...ShareKeyQuery });
export const ListGroupsQuery = Type.Object(PageQuery);

export const AddSectionBody = Type.Object(
  {
    spaceId: NullableString(
      Type.String({ minLength: 1, description: 'The space of the first site space; null creates one' }),
    ),
    title: Type.Optional(NullableString(SectionTitle)),
    icon: Type.Optional(NullableString(Icon)),
    siteSectionGroupId: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export const UpdateSectionBody = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    path: Type.Optional(SectionPath),
    description: Type.Optional(NullableString(SectionDescription)),
    icon: Type.Optional(NullableString(Icon)),
    condition: Type.Optional(NullableString(Condition)),
    defaultSiteSpace: Type.Optional(Id),
    siteSectionGroupId: Type.Optional(NullableString(Id)),
  },
  { additionalProperties: false },
);

const SectionPointer = Type.Object(
  { type: Type.Literal('site-section'), siteSection: Id },
  { additionalProperties: false },
);
export const MoveSectionBody = Type.Object(
  {
    position: Type.Optional(
      Type.Object(
        { before: Type.Optional(SectionPointer), after: Type.Optional(SectionPointer) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const AddGroupBody = Type.Object(
  {
    title: GroupTitle,
    icon: Type.Optional(NullableString(Icon)),
    sections: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);

export const UpdateGroupBody = Type.Object(
  { title: Type.Optional(GroupTitle), icon: Type.Optional(NullableString(Icon)) },
  { additionalProperties: false },
);

export const AddSectionToGroupBody = Type.Object({ sectionId: Id }, { additionalProperties: false });

/** A top-level sibling of a group: a section or another group. */
const TopPointer = Type.Object(
  { type: StringEnum(['site-section', 'site-section-group'] as const), id: Id },
  { additionalProperties: false },
);
export const MoveGroupBody = Type.Object(
  {
    position: Type.Optional(
      Type.Object(
        { before: Type.Optional(TopPointer), after: Type.Optional(TopPointer) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
