/** Table types of single sign-on (src/api/sso, src/auth). Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

/** An organization's SAML identity provider; `pending` until its entity id, SSO URL and certificate are set. */
export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  /** The identity provider's entity id (the Issuer of its responses). */
  entity_id: string | null;
  /** Where the identity provider takes authentication requests (HTTP-Redirect binding). */
  sso_url: string | null;
  /** PEM certificate whose key signs the identity provider's responses. */
  certificate: string | null;
  default_team_id: string | null;
  /** Role of people who join through this provider; null: guests. */
  default_role: string | null;
  created_at: string;
  updated_at: string;
}

/** An assertion a provider sent, remembered until it expires so it is accepted once only. */
export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  expires_at: string;
}

export type SamlProviderRow = Selectable<SamlProvidersTable>;
