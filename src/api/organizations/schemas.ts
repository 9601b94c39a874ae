import { Type } from 'typebox';
import { Nullable, RoleOrGuest, StringEnum, Timestamp, Url } from '../../lib/schemas.js';

export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other',
] as const;
export const COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const;

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, pattern: '\\S.*\\S' });
/**
 * The name of the organization in its sites' addresses (`PUBLIC_URL/sites/<hostname>/…`): a DNS label,
 * stored lower-cased, unique across organizations, never shaped like an id (src/api/organizations/service.ts).
 */
export const OrganizationHostname = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$',
  description:
    'Letters, digits and inner hyphens; stored lower-case and unique across organizations (409). ' +
    'A hostname of 20 letters and digits (the shape of an organization id) is refused (400).',
});
const DefaultContent = Type.Object(
  { type: Type.Literal('site'), site: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

/**
 * Merge rules as the official document shapes them; stored and returned as given, enforced by the
 * merge (src/reviews/merge-rules.ts). `minimum` is Bindery's extension of a rule.
 */
export const MergeRules = Type.Union(
  [
    Type.Object({ type: Type.Literal('none') }, { additionalProperties: false }),
    Type.Object({
      type: Type.Literal('rules'),
      rules: Type.Array(
        Type.Object(
          {
            minimum: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: 100,
                description:
                  'Bindery extension of `require_at_least_one_approved_review`: how many approvals of the ' +
                  "change request's current revision a merge needs (default 1)",
              }),
            ),
          },
          { additionalProperties: true },
        ),
        { maxItems: 50 },
      ),
    }),
  ],
  {
    description:
      'What a change request needs before it can be merged (default `none`). Bindery enforces ' +
      '`require_at_least_one_review`, `require_at_least_one_approved_review` (with `minimum`), ' +
      '`require_all_reviews_approved`, `require_specific_reviewers`, `require_one_of_specific_reviewers`, ' +
      '`require_up_to_date_change_request`, `require_change_request_subject`, `require_author_to_merge` and ' +
      '`allow_bypass`; a rule asking for an approval also needs no outstanding changes request. Other rules ' +
      'refuse the merge (409) as not supported. A merge the rules refuse is a 409 saying why.',
  },
);

export const Organization = Type.Object(
  {
    object: Type.Literal('organization'),
    id: Type.String(),
    title: Type.String(),
    createdAt: Timestamp,
    emailDomains: Type.Array(Type.String()),
    hostname: Type.Optional(Type.String()),
    type: StringEnum(ORGANIZATION_TYPES),
    useCase: Type.Optional(StringEnum(USE_CASES)),
    communityType: Type.Optional(StringEnum(COMMUNITY_TYPES)),
    defaultRole: RoleOrGuest,
    defaultContent: Type.Optional(DefaultContent),
    sso: Type.Boolean(),
    ai: Type.Boolean(),
    inviteLinks: Type.Boolean(),
    plan: Type.String(),
    mergeRules: MergeRules,
    urls: Type.Object({ location: Type.String(), app: Type.String(), logo: Type.Optional(Type.String()) }),
    trial: Type.Object({ status: Type.String(), count: Type.Integer() }),
    customHostname: Type.Optional(Type.String()),
    permissions: Type.Object({
      view: Type.Boolean(),
      access: Type.Boolean(),
      admin: Type.Boolean(),
      ownTeam: Type.Boolean(),
      createContent: Type.Boolean(),
      createOpenAPISpec: Type.Boolean(),
      viewBilling: Type.Boolean(),
      listMembers: Type.Boolean(),
      listTeams: Type.Boolean(),
      listIntegrations: Type.Boolean(),
      listInstallations: Type.Boolean(),
      installIntegration: Type.Boolean(),
    }),
  },
  { $id: 'Organization' },
);

export const CreateOrganizationBody = Type.Object(
  {
    title: OrganizationTitle,
    emailDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 100 })),
    /** Accepted for compatibility with the official client; Bindery has no onboarding to tailor. */
    onboardingPreferences: Type.Optional(Type.Object({}, { additionalProperties: true })),
    type: Type.Optional(StringEnum(ORGANIZATION_TYPES)),
    useCase: Type.Optional(StringEnum(USE_CASES)),
    communityType: Type.Optional(StringEnum(COMMUNITY_TYPES)),
    hostname: Type.Optional(OrganizationHostname),
  },
  { additionalProperties: false },
);

export const UpdateOrganizationBody = Type.Object(
  {
    title: Type.Optional(OrganizationTitle),
    emailDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 100 })),
    hostname: Type.Optional(OrganizationHostname),
    defaultRole: Type.Optional(RoleOrGuest),
    defaultContent: Type.Optional(Nullable(DefaultContent)),
    logo: Type.Optional(Nullable(Url)),
    sso: Type.Optional(Type.Boolean()),
    ai: Type.Optional(Type.Boolean()),
    inviteLinks: Type.Optional(Type.Boolean()),
    mergeRules: Type.Optional(MergeRules),
  },
  { additionalProperties: false },
);

export const PingResponse = Type.Object({
  serviceVisitorClaims: Type.String(),
  gitbookVisitorClaims: Type.String(),
});
