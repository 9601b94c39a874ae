/** Schemas of the Site itself, its published profile and the permissions aggregate. */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { RoleSchema, StringEnum, Timestamp, UserSchema } from '../../lib/schemas.js';
import { Customization } from '../../sites/customization-schema.js';
import {
  NullableString,
  SiteAds,
  SiteExternalLink,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
} from './shared/schemas.js';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;

export const SiteType = StringEnum(SITE_TYPES);
export const SiteVisibility = StringEnum(SITE_VISIBILITIES);
export const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SiteBasename = Type.String({ minLength: 1, maxLength: 100 });
/** A proxy origin: host and path, no scheme (the official `SiteProxyOrigin`). */
export const SiteProxyOrigin = Type.String({
  maxLength: 512,
  pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$',
  description: 'Proxy URL without scheme, e.g. `example.com/docs`',
});

export const Site = Type.Object(
  {
    object: Type.Literal('site'),
    id: Type.String(),
    type: SiteType,
    appliedType: SiteType,
    title: Type.String(),
    hostname: Type.Optional(Type.String()),
    basename: Type.String(),
    proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
    visibility: SiteVisibility,
    defaultLevel: Type.Literal('inherit'),
    permissions: Type.Object({
      view: Type.Boolean(),
      access: Type.Boolean(),
      edit: Type.Boolean(),
      create: Type.Boolean(),
      admin: Type.Boolean(),
      installIntegration: Type.Boolean(),
      viewAdaptiveSchema: Type.Boolean(),
      editAdaptiveSchema: Type.Boolean(),
    }),
    published: Type.Boolean(),
    siteSpaces: Type.Number(),
    createdAt: Timestamp,
    adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
    ads: SiteAds,
    features: Type.Array(Type.Object({ id: Type.String(), plan: SiteType, frozen: Type.Boolean() })),
    urls: Type.Object({
      location: Type.String(),
      app: Type.String(),
      preview: Type.String(),
      published: Type.Optional(Type.String()),
    }),
  },
  { $id: 'Site' },
);

export const ListSitesQuery = Type.Object({
  ...PageQuery,
  space: Type.Optional(Type.String({ minLength: 1, description: 'Only sites publishing this space' })),
  title: Type.Optional(Type.String({ description: 'Only sites whose title contains this (case-insensitive)' })),
  published: Type.Optional(Type.Boolean()),
  type: Type.Optional(Type.Array(SiteType, { description: 'Only sites of these types' })),
});

export const CreateSiteBody = Type.Object(
  {
    type: Type.Optional(SiteType),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    spaces: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Spaces to add as site spaces' }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateSiteBody = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    basename: Type.Optional(SiteBasename),
    adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
    defaultSiteSpace: Type.Optional(Type.String({ minLength: 1 })),
    defaultSiteSection: Type.Optional(Type.String({ minLength: 1 })),
    proxy: Type.Optional(NullableString(SiteProxyOrigin)),
  },
  { additionalProperties: false },
);

/**
 * The official `SiteStructure`: sections, groups and external links in order when the site has
 * sections, its site spaces otherwise.
 */
export const SiteStructure = Type.Union([
  Type.Object({
    type: Type.Literal('sections'),
    structure: Type.Array(Type.Union([SiteSection, SiteSectionGroup, SiteExternalLink])),
  }),
  Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpace) }),
]);

export const PublishedSite = Type.Object({
  object: Type.Literal('published-content-site'),
  site: Site,
  structure: SiteStructure,
  customizations: Type.Object({
    site: Customization,
    /** Keyed by site-space id. */
    siteSpaces: Type.Record(Type.String(), Customization),
  }),
  /** Integration scripts: none until integrations can be installed on sites. */
  scripts: Type.Array(Type.Object({})),
});

export const SitePermissionEntry = Type.Object({
  permission: RoleSchema,
  user: UserSchema,
  origin: Type.Object({ type: Type.Literal('space'), space: Type.String() }),
  disabled: Type.Boolean(),
});
