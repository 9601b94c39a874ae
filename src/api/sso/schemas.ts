/**
 * The official `sso` operations (SAML providers of an organization, and the sign-in choices a
 * sign-in page shows): TypeBox schemas shaped as `OrganizationSAMLProvider` and
 * `OrganizationSSOProviderLogin` of the official document.
 */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { Params, RoleOrGuest, Timestamp, WebUrl } from '../../lib/schemas.js';
import { Team } from '../teams/schemas.js';

const Label = Type.String({ minLength: 1, maxLength: 30 });
const EntityId = Type.String({ minLength: 1, maxLength: 1024 });
const Certificate = Type.String({
  minLength: 1,
  maxLength: 10_000,
  description: "The identity provider's signing certificate: PEM, or the base64 of its DER as IdP metadata gives it",
});
const DefaultTeam = Type.String({ description: 'A team of the organization new members join; "" for none' });

export const SamlProvider = Type.Object(
  {
    object: Type.Literal('saml-provider'),
    id: Type.String(),
    label: Type.String(),
    ssoURL: Type.String(),
    entityID: Type.String(),
    certificate: Type.String(),
    defaultTeam: Type.Optional(Type.Object(Team.properties)),
    defaultRole: RoleOrGuest,
    createdAt: Timestamp,
    status: Type.Union([Type.Literal('active'), Type.Literal('pending')], {
      description: '`pending` until the entity id, the SSO URL and the certificate are all set',
    }),
    service: Type.Object({
      acsURL: Type.String({ description: 'Assertion Consumer Service URL (HTTP-POST binding)' }),
      startURL: Type.String({ description: 'Where a sign-in through this provider starts' }),
      entityID: Type.String({ description: "Bindery's entity id for this provider (its metadata URL)" }),
    }),
    urls: Type.Object({ location: Type.String() }),
  },
  { $id: 'SamlProvider' },
);

export const SsoProviderLogin = Type.Object({ id: Type.String(), label: Type.String(), startURL: Type.String() });

export const OrgParams = Type.Object({ organizationId: Params.organizationId });
export const ProviderParams = Type.Object({
  organizationId: Params.organizationId,
  samlProviderId: Type.String({ minLength: 1 }),
});
export const ListProvidersQuery = Type.Object(PageQuery);

const fields = {
  label: Label,
  entityID: EntityId,
  certificate: Certificate,
  ssoURL: WebUrl,
  defaultTeam: DefaultTeam,
  defaultRole: RoleOrGuest,
};
export const CreateProviderBody = Type.Object(
  {
    label: fields.label,
    entityID: Type.Optional(fields.entityID),
    certificate: Type.Optional(fields.certificate),
    ssoURL: Type.Optional(fields.ssoURL),
    defaultTeam: Type.Optional(fields.defaultTeam),
    defaultRole: Type.Optional(fields.defaultRole),
  },
  { additionalProperties: false },
);
export const UpdateProviderBody = Type.Partial(Type.Object(fields), { additionalProperties: false });
