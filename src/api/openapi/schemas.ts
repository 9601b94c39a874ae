import { Type } from 'typebox';
import { Nullable, Params, StringEnum, Timestamp, Url } from '../../lib/schemas.js';

export const SPEC_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SpecSlug = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: SPEC_SLUG_PATTERN,
  description: 'Slug used as reference: lower-case letters and digits in groups joined by single hyphens',
});

export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export type SpecVisibility = (typeof SPEC_VISIBILITIES)[number];

export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export const SpecSource = Type.Union(
  [
    Type.Object(
      { url: Url },
      {
        additionalProperties: false,
        description: 'Create a specification from an URL (fetched on create and on every PUT)',
      },
    ),
    Type.Object(
      { text: Type.String({ minLength: 1, description: 'OpenAPI specification as text (JSON or YAML)' }) },
      { additionalProperties: false, description: 'Create a specification from a text string' },
    ),
  ],
  { description: 'Where the specification comes from: `{url}` or `{text}`' },
);

export const OpenAPISpec = Type.Object(
  {
    object: Type.Literal('openapi-spec'),
    id: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    slug: Type.String(),
    sourceURL: Type.Optional(Type.String({ description: 'Absent for a specification given as text' })),
    processingState: StringEnum(PROCESSING_STATES, {
      description: '`pending` until a worker takes it, `progress` while it runs, `complete` after (even on error)',
    }),
    lastVersion: Type.Optional(Type.String({ description: 'Id of the latest version' })),
    lastProcessedAt: Type.Optional(Timestamp),
    lastProcessErrorCode: Type.Optional(
      StringEnum(PROCESS_ERROR_CODES, { description: 'Set when the last processing failed' }),
    ),
    lastProcessedErrors: Type.Optional(
      Type.Array(Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) })),
    ),
    lastProcessedErrorCount: Type.Integer({ minimum: 0 }),
    visibility: StringEnum(SPEC_VISIBILITIES, {
      description: '`private`: not publicly available; `public`: available to anyone with a public link',
    }),
    permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
    urls: Type.Object({ location: Type.String(), app: Type.String() }),
  },
  { $id: 'OpenAPISpec' },
);

export const OpenAPISpecVersion = Type.Object(
  {
    object: Type.Literal('openapi-spec-version'),
    id: Type.String(),
    createdAt: Type.Optional(Timestamp),
    url: Type.String({ maxLength: 2048, description: 'Where the specification of this version is accessible' }),
    urls: Type.Object({ location: Type.String(), app: Type.String() }),
  },
  { $id: 'OpenAPISpecVersion' },
);

export const OpenAPISpecContent = Type.Object(
  {
    filesystem: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Every file of the version, entry document first: its path (relative to the entry document when it ' +
        'sits beside or below it, else its URL) → its parsed content',
    }),
    url: Type.String({ description: 'URL of the entry document' }),
    urls: Type.Object({ source: Type.String(), public: Nullable(Type.String()) }),
  },
  { $id: 'OpenAPISpecContent' },
);

export const OrgParams = Type.Object({ organizationId: Params.organizationId });
export const SpecParams = Type.Object({
  organizationId: Params.organizationId,
  specSlug: Type.String({ minLength: 1 }),
});
/** PUT may create, so its slug must be valid. */
export const PutSpecParams = Type.Object({ organizationId: Params.organizationId, specSlug: SpecSlug });
export const VersionParams = Type.Object({
  organizationId: Params.organizationId,
  specSlug: Type.String({ minLength: 1 }),
  versionId: Type.String({ minLength: 1 }),
});

export const CreateSpecBody = Type.Object({ slug: SpecSlug, source: SpecSource }, { additionalProperties: false });
export const UpdateSpecBody = Type.Object(
  { visibility: StringEnum(SPEC_VISIBILITIES) },
  { additionalProperties: false },
);

export const OpenAPISpecRawContent = Type.Object(
  {
    text: Type.String({ description: 'The specification entry document exactly as submitted or fetched' }),
    format: StringEnum(['json', 'yaml'] as const),
  },
  { $id: 'OpenAPISpecRawContent' },
);

export const PutSpecBody = Type.Object({ source: SpecSource }, { additionalProperties: false });
