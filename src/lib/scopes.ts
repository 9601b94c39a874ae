/**
 * Token scopes, named as in the official client's OpenAPI document. A route declares the one it
 * needs in `config.scope`; a token that lists scopes must include it (a `…:write` scope also grants
 * the `…:read` of the same resource). A token without scopes has all of its user's rights.
 */
export const SCOPES = [
  'user:read',
  // Bindery's own: changing one's profile (updateUserById); the official document names no scope for it.
  'user:write',
  'organization:read',
  'organization:write',
  'organization:members:read',
  'organization:members:write',
  'organization:webhooks:read',
  'organization:webhooks:write',
  'organization:ask',
  'organization:search',
  'space:read',
  'space:write',
  'space:permissions:read',
  'space:permissions:write',
  'change-request:merge',
  'site:read',
  'site:write',
  'site:publish',
  'site:permissions:read',
  'site:permissions:write',
  'site:auth:read',
  'site:auth:write',
  'site:insights:read',
  'site:ask',
  'site:search',
  'integration:read',
  'integration:installations:read',
  'integration:installations:write',
  'integration:publish',
  'integration:delete',
  'openapi:read',
  'openapi:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Whether a token granted `granted` (null: unrestricted) may call an operation needing `needed`. */
export function scopeAllows(granted: ReadonlySet<string> | null, needed: Scope): boolean {
  if (granted === null || granted.has(needed)) return true;
  return needed.endsWith(':read') && granted.has(needed.replace(/:read$/, ':write'));
}
