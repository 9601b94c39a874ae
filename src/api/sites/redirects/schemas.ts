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
