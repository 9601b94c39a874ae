import { Type } from 'typebox';
import { PageQuery } from '../../../lib/paging.js';
import { Timestamp, WebUrl } from '../../../lib/schemas.js';
import { ShareKeyQuery } from '../shared/schemas.js';

/** A slash, then letters, digits, `-`, `_`, `.` and `/`, ending with anything of those but a slash. */
export const RedirectSource = Type.String({
  maxLength: 512,
  pattern: '^/[a-zA-Z0-9-_.\\/]+[a-zA-Z0-9-_.]$',
  description: 'Path to redirect from, e.g. `/old/page`',
});

const Id = Type.String({ minLength: 1 });

export const RedirectDestination = Type.Union([
  Type.Object({ kind: Type.Literal('site-section'), siteSectionId: Id }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('site-space'), siteSpaceId: Id }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('external'), url: WebUrl }, { additionalProperties: false }),
]);

export const SiteRedirect = Type.Object(
  {
    object: Type.Literal('site-redirect'),
    id: Type.String(),
    source: Type.String(),
    destination: RedirectDestination,
    draft: Type.Boolean(),
    captureWildcard: Type.Boolean(),
    permanent: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Type.Optional(Timestamp),
  },
  { $id: 'SiteRedirect' },
);

export const RedirectParams = Type.Object({ organizationId: Id, siteId: Id, siteRedirectId: Id });
export const ListRedirectsQuery = Type.Object(PageQuery);
export const ResolveRedirectQuery = Type.Object({ source: RedirectSource, ...ShareKeyQuery });

export const CreateRedirectBody = Type.Object(
  { source: RedirectSource, destination: RedirectDestination },
  { additionalProperties: false },
);
export const UpdateRedirectBody = Type.Object(
  { source: Type.Optional(RedirectSource), destination: Type.Optional(RedirectDestination) },
  { additionalProperties: false },
);

export const ResolvedRedirect = Type.Object({ redirect: SiteRedirect, target: Type.String() });

/**
 * One entry of `bulkUpsertSiteRedirects`: a source and its live destination (null: delete the
 * redirect from that source). Redirects here are all live, permanent-less and without wildcard
 * capture (what `createSiteRedirect` makes), so the official `draft` and `publish` intents and
 * `captureWildcard` / `permanent` set to true are refused (400) rather than silently dropped.
 */
export const BulkRedirectEntry = Type.Object(
  {
    source: RedirectSource,
    intent: Type.Optional(Type.String({ enum: ['live', 'draft', 'publish'], description: 'Only `live` is supported' })),
    captureWildcard: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
    destination: Type.Optional(Type.Union([RedirectDestination, Type.Null()])),
  },
  { additionalProperties: false },
);

/** The most entries one `bulkUpsertSiteRedirects` takes (the official limit). */
export const BULK_REDIRECTS_MAX = 500;

export const BulkRedirectsBody = Type.Object(
  { redirects: Type.Array(BulkRedirectEntry, { minItems: 1, maxItems: BULK_REDIRECTS_MAX }) },
  { additionalProperties: false },
);

const BulkResult = (status: 'created' | 'updated' | 'published') =>
  Type.Object({ status: Type.Literal(status), source: Type.String(), draft: Type.Boolean(), id: Type.String() });

export const BulkRedirectsResult = Type.Object({
  results: Type.Array(
    Type.Union([
      BulkResult('created'),
      BulkResult('updated'),
      Type.Object({ status: Type.Literal('deleted'), source: Type.String(), draft: Type.Boolean() }),
    ]),
  ),
});
