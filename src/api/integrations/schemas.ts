/**
 * Integrations: the published definition (Integration), the publish body, installations.
 * Shapes follow the official document (schemas Integration, PublishIntegration,
 * IntegrationInstallation, IntegrationSpaceInstallation); limits follow our spec.
 */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { StringEnum, Timestamp, Url } from '../../lib/schemas.js';
import { Organization } from '../organizations/schemas.js';
import { Space } from '../spaces/schemas.js';

/** Largest decoded icon or preview image. */
export const MAX_IMAGE_BYTES = 1024 * 1024;
/** Base64 length of {@link MAX_IMAGE_BYTES}. */
const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

export const NAME_PATTERN = '^[a-zA-Z0-9-_.]+$';
export const IntegrationName = Type.String({ minLength: 1, maxLength: 100, pattern: NAME_PATTERN });

/** Our spec's categories (it adds `gitsync` to the official list). */
export const CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'gitsync',
  'marketing',
  'visitor-auth',
  'other',
] as const;
export const TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const VISIBILITIES = ['public', 'private', 'unlisted'] as const;
/** The official IntegrationScope enum, plus `space:views:read` (the example value of our spec). */
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'space:views:read',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;

export type IntegrationTarget = (typeof TARGETS)[number];
export const Category = StringEnum(CATEGORIES);
export const Target = StringEnum(TARGETS);
export const Visibility = StringEnum(VISIBILITIES);
export const IntegrationScope = StringEnum(INTEGRATION_SCOPES);

const Base64Image = Type.String({
  minLength: 1,
  maxLength: MAX_IMAGE_BASE64,
  pattern: '^[A-Za-z0-9+/]+={0,2}$',
  description: `Base64 content of an image (at most ${MAX_IMAGE_BYTES} bytes decoded)`,
});

export const Block = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(Type.String({ maxLength: 2048 })),
    urlUnfurl: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { maxItems: 50 })),
    markdown: Type.Optional(
      Type.Object(
        { codeblock: Type.String({ maxLength: 100 }), body: Type.String({ maxLength: 100 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const ConfigurationComponent = Type.Object(
  { componentId: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const ContentSource = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(Type.String({ maxLength: 2048 })),
    configuration: ConfigurationComponent,
  },
  { additionalProperties: false },
);

const ConfigurationProperty = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 2, maxLength: 50 })),
    description: Type.Optional(Type.String({ maxLength: 100 })),
    type: StringEnum(['string', 'number', 'boolean', 'button'] as const),
    default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    completion_url: Type.Optional(Type.String({ maxLength: 2048 })),
    enum: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
    callback_url: Type.Optional(Type.String({ maxLength: 2048 })),
    button_text: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

const ConfigurationSchema = Type.Object(
  {
    properties: Type.Record(Type.String(), ConfigurationProperty),
    required: Type.Optional(Type.Array(Type.String(), { uniqueItems: true })),
  },
  { additionalProperties: false },
);

/** A configuration is a schema `{properties, required}` or a ContentKit component `{componentId}`. */
const Configuration = Type.Union([ConfigurationSchema, ConfigurationComponent]);

export const Configurations = Type.Object(
  { account: Type.Optional(Configuration), space: Type.Optional(Configuration), site: Type.Optional(Configuration) },
  { additionalProperties: false },
);

export const ExternalLink = Type.Object(
  { url: Url, label: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

const CSP_DIRECTIVES = [
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-sri-for',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
] as const;

/** A policy header value, or one string per directive (the official document's two forms). */
export const ContentSecurityPolicy = Type.Union([
  Type.String({ maxLength: 4096 }),
  Type.Object(Object.fromEntries(CSP_DIRECTIVES.map((d) => [d, Type.Optional(Type.String({ maxLength: 2048 }))])), {
    additionalProperties: false,
  }),
]);

export const PublishBody = Type.Object(
  {
    runtime: Type.Optional(StringEnum(['v1', 'v2'] as const)),
    icon: Type.Optional(Base64Image),
    title: Type.String({ minLength: 2, maxLength: 30 }),
    description: Type.String({ maxLength: 100 }),
    summary: Type.Optional(Type.String({ maxLength: 2048 })),
    previewImages: Type.Optional(Type.Array(Base64Image, { maxItems: 3 })),
    visibility: Type.Optional(Visibility),
    target: Type.Optional(Target),
    scopes: Type.Array(IntegrationScope, { maxItems: INTEGRATION_SCOPES.length, uniqueItems: true }),
    categories: Type.Optional(Type.Array(Category, { maxItems: CATEGORIES.length, uniqueItems: true })),
    blocks: Type.Optional(Type.Array(Block, { maxItems: 50 })),
    contentSources: Type.Optional(Type.Array(ContentSource, { maxItems: 50 })),
    externalLinks: Type.Optional(Type.Array(ExternalLink, { maxItems: 5 })),
    configurations: Type.Optional(Configurations),
    script: Type.String({ minLength: 1, maxLength: 5 * 1024 * 1024 }),
    organization: Type.String({ minLength: 1, maxLength: 255 }),
    secrets: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: 10_000 }), {
        maxProperties: 20,
      }),
    ),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
  },
  { additionalProperties: false },
);

export const Integration = Type.Object(
  {
    object: Type.Literal('integration'),
    name: Type.String(),
    version: Type.Number(),
    title: Type.String(),
    description: Type.String(),
    summary: Type.Optional(Type.String()),
    previewImages: Type.Array(Type.String()),
    target: Target,
    verified: Type.Boolean(),
    visibility: Visibility,
    scopes: Type.Array(IntegrationScope),
    categories: Type.Array(Category),
    blocks: Type.Array(Block),
    contentSources: Type.Array(ContentSource),
    configurations: Configurations,
    externalLinks: Type.Array(ExternalLink),
    owner: Organization,
    urls: Type.Object({
      location: Type.String(),
      icon: Type.Optional(Type.String()),
      app: Type.String(),
      assets: Type.String(),
      publicEndpoint: Type.String(),
      publicContentEndpoint: Type.String(),
    }),
    permissions: Type.Object({ admin: Type.Boolean(), install: Type.Boolean() }),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
  },
  { $id: 'Integration' },
);

export const IntegrationParams = Type.Object({ integrationName: IntegrationName });
export const PreviewParams = Type.Object({
  integrationName: IntegrationName,
  index: Type.Integer({ minimum: 0, maximum: 2 }),
});
export const InstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: Type.String({ minLength: 1 }),
});
export const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });

export const ListIntegrationsQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Name or title contains (case-insensitive)' })),
  category: Type.Optional(Category),
  blockDomain: Type.Optional(
    Type.String({ maxLength: 100, pattern: NAME_PATTERN, description: 'A block unfurls URLs of this domain' }),
  ),
  blocks: Type.Optional(Type.Boolean({ description: 'true: only with blocks; false: only without' })),
  contentSources: Type.Optional(Type.Boolean({ description: 'true: only with content sources; false: only without' })),
  owner: Type.Optional(Type.String({ minLength: 1, description: 'Owning organization id' })),
  scope: Type.Optional(IntegrationScope),
  target: Type.Optional(Target),
});

export const SpaceIntegrationsQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Name or title contains (case-insensitive)' })),
});

export const InstallBody = Type.Object(
  { organization: Type.String({ minLength: 1, description: 'Id of the organization to install on' }) },
  { additionalProperties: false },
);

export const InstallOnSpaceBody = Type.Object(
  { space: Type.String({ minLength: 1, description: 'Id of the space to install on' }) },
  { additionalProperties: false },
);
export const InstallOnSpaceQuery = Type.Object({
  extended: Type.Optional(Type.Boolean({ description: 'Return the Space object instead of its id' })),
});

const InstallationStatus = StringEnum(['active', 'pending', 'paused'] as const);
const Selection = StringEnum(['all', 'selected'] as const);

export const Installation = Type.Object({
  object: Type.Literal('integration-installation'),
  id: Type.String(),
  integration: Type.String(),
  status: InstallationStatus,
  space_selection: Selection,
  site_selection: Selection,
  spaces: Type.Number(),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({
    location: Type.String(),
    app: Type.String(),
    publicEndpoint: Type.String(),
    publicContentEndpoint: Type.String(),
  }),
  externalIds: Type.Array(Type.String()),
  target: Type.Object({ organization: Type.String() }),
});

export const SpaceInstallation = Type.Object({
  object: Type.Literal('integration-space-installation'),
  integration: Type.String(),
  installation: Type.String(),
  status: InstallationStatus,
  configuration: Type.Record(Type.String(), Type.Unknown()),
  externalIds: Type.Array(Type.String()),
  urls: Type.Object({ location: Type.String(), publicEndpoint: Type.String(), publicContentEndpoint: Type.String() }),
  space: Type.Union([Type.String(), Space]),
});

export const SpaceIntegrationBlocks = Type.Array(Type.Object({ name: Type.String(), blocks: Type.Array(Block) }));
