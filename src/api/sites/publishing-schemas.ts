/** Schemas of the publishing operations: visitor authentication, preview links, site search. */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { StringEnum, Url, WebUrl } from '../../lib/schemas.js';
import { NullableString } from './shared/schemas.js';

export const PublishingAuth = Type.Object(
  {
    object: Type.Literal('publishing-auth'),
    backend: StringEnum(['custom', 'integration'] as const),
    privateKey: Type.String({ description: 'The key visitor JWTs are signed with (HS256)' }),
    fallbackURL: Type.Optional(Url),
    logoutURL: Type.Optional(Url),
  },
  { $id: 'SitePublishingAuth' },
);

export const UpdatePublishingAuthBody = Type.Object(
  {
    backend: StringEnum(['custom', 'integration'] as const),
    fallbackURL: Type.Optional(NullableString(WebUrl)),
    logoutURL: Type.Optional(NullableString(WebUrl)),
  },
  { additionalProperties: false },
);

export const PreviewQuery = Type.Object({
  siteSpace: Type.Optional(
    Type.String({ minLength: 1, description: 'The site space to preview (default: the default one)' }),
  ),
  claims: Type.Optional(
    Type.String({ description: 'Rison-encoded visitor claims (Bindery has no adaptive content: ignored)' }),
  ),
  draft: Type.Optional(Type.Boolean({ default: true })),
  target: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'An address on the site to open' })),
});

export const PreviewUrl = Type.Object({ url: Url });

export { SearchSpaceResult } from '../../lib/search-schemas.js';

export const SearchQuery = Type.Object(PageQuery);

const SiteSpaceIds = Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000 });

/** The official body: `query`, and a `scope` (or the deprecated `mode` / `siteSpaceIds` / `siteSpaceId`). */
export const SearchBody = Type.Object(
  {
    query: Type.String({ maxLength: 512 }),
    scope: Type.Optional(
      Type.Union([
        Type.Object(
          {
            mode: Type.Literal('default'),
            currentSiteSpace: Type.Optional(Type.String({ minLength: 1 })),
            restrictTo: Type.Optional(StringEnum(['currentSiteSpace', 'otherSiteSpaces'] as const)),
          },
          { additionalProperties: false },
        ),
        Type.Object({ mode: Type.Literal('specific'), siteSpaceIds: SiteSpaceIds }, { additionalProperties: false }),
        Type.Object({ mode: Type.Literal('all') }, { additionalProperties: false }),
      ]),
    ),
    mode: Type.Optional(StringEnum(['specific', 'current', 'all'] as const, { deprecated: true })),
    siteSpaceIds: Type.Optional(SiteSpaceIds),
    siteSpaceId: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
