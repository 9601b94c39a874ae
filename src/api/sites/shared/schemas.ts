/**
 * Schemas shared by the sites sub-areas: the path parameters of a site, the `shareKey` query, and the
 * objects of a site's structure (site spaces, sections, section groups), which several sub-areas and
 * the published profile return.
 */
import { type TSchema, Type } from 'typebox';
import { Params, StringEnum } from '../../../lib/schemas.js';
import { Space } from '../../spaces/schemas.js';

/**
 * `schema` without its `$id`, for schemas a response embeds more than once (a section group lists
 * its sections twice, every site space embeds a Space): Fastify refuses an `$id` seen twice in one
 * response schema.
 */
export function inline<T extends TSchema>(schema: T): T {
  const { $id: _id, ...rest } = schema as T & { $id?: string };
  return rest as T;
}

/**
 * `schema` (a string schema) or null, as one `type: ['string', 'null']` schema. The app's Ajv coerces
 * types, so in a union `null` would become `""` for the string branch (and `""` null for the other)
 * before the string's constraints apply.
 */
export function NullableString<T extends TSchema>(schema: T) {
  return Type.Unsafe<string | null>({ ...(schema as object), type: ['string', 'null'] });
}

const Id = Type.String({ minLength: 1 });

/** Path parameters shared by every operation on one site. */
export const SiteParams = Type.Object({ organizationId: Params.organizationId, siteId: Id });
export const OrgParams = Type.Object({ organizationId: Params.organizationId });
export const SiteSpaceParams = Type.Object({ organizationId: Id, siteId: Id, siteSpaceId: Id });

/** `shareKey` of the operations that return published URLs. */
export const ShareKeyQuery = {
  shareKey: Type.Optional(
    Type.String({ minLength: 1, description: 'Key of an active share link, to resolve published URLs' }),
  ),
};

/** A visitor condition: a JavaScript expression (checked by `src/sites/condition.ts`). */
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

export const SiteSection = Type.Object(
  {
    object: Type.Literal('site-section'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    default: Type.Boolean(),
    draft: Type.Boolean(),
    path: Type.String(),
    condition: Type.Optional(Type.String()),
    sectionGroup: Type.Optional(Type.String()),
    siteSpaces: Type.Array(SiteSpace),
    urls: Type.Object({ published: Type.Optional(Type.String()) }),
    icon: Type.Optional(Type.String()),
  },
  { description: 'A section of a site' },
);

/** Locale → text (the official `LocalizedString128` / `LocalizedString256`: overrides for other languages). */
export const LocalizedString = (maxLength: number) =>
  Type.Record(Type.String({ pattern: '^[a-z]{2,3}(-[a-z]{2,4})?$' }), Type.String({ maxLength }), {
    additionalProperties: false,
  });

/** The official `SiteExternalLink`: a link of the site's navigation to another site. */
export const SiteExternalLink = Type.Object(
  {
    object: Type.Literal('site-external-link'),
    id: Type.String(),
    title: Type.String(),
    localizedTitle: Type.Optional(LocalizedString(128)),
    description: Type.Optional(Type.String()),
    localizedDescription: Type.Optional(LocalizedString(256)),
    icon: Type.Optional(Type.String()),
    url: Type.String(),
    sectionGroup: Type.Optional(Type.String()),
    draft: Type.Boolean(),
    condition: Type.Optional(Type.String()),
  },
  { description: 'An external link of the navigation of a site' },
);

export const SiteSectionGroup = Type.Object(
  {
    object: Type.Literal('site-section-group'),
    id: Type.String(),
    title: Type.String(),
    icon: Type.Optional(Type.String()),
    draft: Type.Boolean(),
    sections: Type.Array(SiteSection),
    /** The sections and external links of the group, in order (the official document's newer list). */
    children: Type.Array(Type.Union([SiteSection, SiteExternalLink])),
  },
  { description: 'A group of sections of a site' },
);

export const ADS_STATUSES = ['pending', 'in-review', 'live', 'rejected', 'disabled'] as const;

/** A site's `ads` field (the Site object's, and the `site-ads` object of its events). */
export const SiteAds = Type.Object({
  status: StringEnum(ADS_STATUSES),
  submittable: Type.Optional(Type.Boolean()),
  topic: Type.Optional(Type.String()),
  zoneId: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
});
