import type { SessionPolicy } from '../../core/sessions.js';
import type { ApiTokenRow, SessionRow } from '../../db/schema.js';

export function presentSession(row: SessionRow, currentId: string | null, policy: SessionPolicy) {
  const idleEnd = Date.parse(row.last_used_at) + policy.idleMs;
  return {
    object: 'session' as const,
    id: row.id,
    current: row.id === currentId,
    method: row.method as 'password' | 'oidc' | 'saml',
    ...(row.provider_id ? { providerId: row.provider_id } : {}),
    ...(row.user_agent ? { userAgent: row.user_agent } : {}),
    ...(row.client_address ? { clientAddress: row.client_address } : {}),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: new Date(Math.min(Date.parse(row.expires_at), idleEnd)).toISOString(),
  };
}

/** A token as its owner lists it: never its secret (nor the secret's hash). */
export function presentApiToken(row: ApiTokenRow) {
  return {
    object: 'api-token' as const,
    id: row.id,
    label: row.label,
    scopes: row.scopes ? (JSON.parse(row.scopes) as string[]) : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}
