/** Table types of sign-in: sessions, passwords, password resets, failed attempts. Conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

export interface SessionsTable {
  /** Public id (lists, revocation); the cookie carries a separate secret. */
  id: string;
  user_id: string;
  /** SHA-256 of the cookie's secret, hex. The secret itself is never stored. */
  secret_hash: string;
  /** `password`, `oidc` or `saml`. */
  method: string;
  /** The identity provider of an SSO sign-in. */
  provider_id: string | null;
  user_agent: string | null;
  client_address: string | null;
  created_at: string;
  /** Written at most once a minute per session; the idle expiry counts from it. */
  last_used_at: string;
  /** The absolute end (created_at + SESSION_MAX_DAYS). */
  expires_at: string;
}

export interface UserPasswordsTable {
  user_id: string;
  /** Argon2id, PHC string. */
  hash: string;
  updated_at: string;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SignInFailuresTable {
  id: string;
  /** `email:<address>` or `client:<address>` */
  key: string;
  failed_at: string;
}

export type SessionRow = Selectable<SessionsTable>;
export type PasswordResetRow = Selectable<PasswordResetsTable>;
