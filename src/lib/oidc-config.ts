/**
 * The OpenID Connect settings (`OIDC_*`), read from the environment by src/config.ts: an error
 * thrown here names the variable and becomes a configuration error there.
 */

export interface OidcConfig {
  /** The issuer identifier; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The name of the provider on the sign-in button (`OIDC_NAME`). */
  name: string;
  /** Scopes asked for (`OIDC_SCOPES`); always with `openid` and `email`. */
  scopes: string[];
  /** The organization people who sign in this way join (`OIDC_ORGANIZATION`); null: they join by invitation. */
  organizationId: string | null;
  /** Their role there (`OIDC_DEFAULT_ROLE`); null: the organization's default role. */
  defaultRole: string | null;
}

const OIDC_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

/** Whether `hostname` is a loopback address, where an `http://` issuer is accepted (development, tests). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

export function parseOidc(env: NodeJS.ProcessEnv): OidcConfig | null {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!issuer) {
    if (clientId || clientSecret || env.OIDC_ORGANIZATION?.trim()) {
      throw new Error('OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_ORGANIZATION need OIDC_ISSUER');
    }
    return null;
  }
  if (!clientId || !clientSecret) throw new Error('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`OIDC_ISSUER must be an https:// URL, got "${issuer}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new Error(`OIDC_ISSUER must be an https:// URL (http:// only on a loopback address), got "${issuer}"`);
  }
  const scopes = new Set(['openid', 'email', ...(env.OIDC_SCOPES ?? 'profile').split(/[\s,]+/).filter(Boolean)]);
  const organizationId = env.OIDC_ORGANIZATION?.trim() || null;
  const defaultRole = env.OIDC_DEFAULT_ROLE?.trim() || null;
  if (defaultRole !== null && !OIDC_ROLES.includes(defaultRole)) {
    throw new Error(`OIDC_DEFAULT_ROLE must be one of ${OIDC_ROLES.join(', ')}, got "${defaultRole}"`);
  }
  if (defaultRole !== null && organizationId === null) {
    throw new Error('OIDC_DEFAULT_ROLE needs OIDC_ORGANIZATION (the organization it is a role in)');
  }
  return {
    issuer,
    clientId,
    clientSecret,
    name: env.OIDC_NAME?.trim() || url.hostname,
    scopes: [...scopes],
    organizationId,
    defaultRole,
  };
}
