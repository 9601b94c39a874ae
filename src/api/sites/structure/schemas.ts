/** Schemas of a site's external links and of the generic structure sort (the official ones). */
import { Type } from 'typebox';
import { Icon, WebUrl } from '../../../lib/schemas.js';
import {
  LocalizedString,
  NullableString,
  SiteExternalLink,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
} from '../shared/schemas.js';

const Id = Type.String({ minLength: 1 });
/** The official `SiteSectionTitle` and `SiteSectionDescription`, which external links use. */
const SectionTitle = Type.String({ minLength: 2, maxLength: 128 });
const SectionDescription = Type.String({ maxLength: 256 });
const Nullable = <T extends ReturnType<typeof LocalizedString>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ExternalLinkParams = Type.Object({ organizationId: Id, siteId: Id, siteExternalLinkId: Id });

/** The `Prefer` header of the operations that may answer without the representation. */
export const PreferHeaders = Type.Object({
  prefer: Type.Optional(Type.Union([Type.Literal('return=minimal'), Type.Literal('return=representation')])),
});

/** `condition` of a link: an expression, or "" / null for none. */
const LinkCondition = Type.Optional(NullableString(Type.String({ maxLength: 1024 })));

export const AddExternalLinkBody = Type.Object(
  {
    title: SectionTitle,
    localizedTitle: Type.Optional(LocalizedString(128)),
    description: Type.Optional(NullableString(SectionDescription)),
    localizedDescription: Type.Optional(Nullable(LocalizedString(256))),
    icon: Type.Optional(NullableString(Icon)),
    url: WebUrl,
    parent: Type.Optional(Id),
    draft: Type.Optional(Type.Boolean()),
    condition: LinkCondition,
  },
  { additionalProperties: false },
);

export const UpdateExternalLinkBody = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    localizedTitle: Type.Optional(Nullable(LocalizedString(128))),
    description: Type.Optional(NullableString(SectionDescription)),
    localizedDescription: Type.Optional(Nullable(LocalizedString(256))),
    icon: Type.Optional(NullableString(Icon)),
    url: Type.Optional(WebUrl),
    parent: Type.Optional(NullableString(Id)),
    draft: Type.Optional(Type.Boolean()),
    condition: LinkCondition,
  },
  { additionalProperties: false },
);

/** The official `SiteStructureItemPointer`. */
export const StructurePointer = Type.Object(
  {
    type: Type.Union([
      Type.Literal('site-space'),
      Type.Literal('site-section'),
      Type.Literal('site-section-group'),
      Type.Literal('site-external-link'),
    ]),
    id: Id,
  },
  { additionalProperties: false },
);

export const SortStructureBody = Type.Object(
  {
    item: StructurePointer,
    position: Type.Object(
      { before: Type.Optional(StructurePointer), after: Type.Optional(StructurePointer) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** The official `SiteStructureItem`. */
export const SiteStructureItem = Type.Union([SiteSpace, SiteSection, SiteSectionGroup, SiteExternalLink]);
