/**
 * Roles as the people screens show and choose them. Radix Select values are non-empty strings, so
 * a guest (`null` in the API) is the value `guest` on screen and turned back here.
 */
import type { Role, RoleOrGuest } from './types';

export const ROLES: readonly Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

export const ROLE_LABELS: Record<Role | 'guest', string> = {
  admin: 'Admin',
  create: 'Creator',
  review: 'Reviewer',
  edit: 'Editor',
  comment: 'Commenter',
  read: 'Reader',
  guest: 'Guest',
};

export const GUEST = 'guest';

/** Every organization role, guest last, as Select options. */
export const ROLE_OPTIONS = [...ROLES, GUEST].map((value) => ({ value, label: ROLE_LABELS[value as Role | 'guest'] }));

/** The Select value of a role (`guest` for null). */
export function roleValue(role: RoleOrGuest | undefined): string {
  return role ?? GUEST;
}

/** The role a Select value stands for (`guest` → null); anything unknown is an error, not a guess. */
export function roleFromValue(value: string): RoleOrGuest {
  if (value === GUEST) return null;
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  throw new Error(`unknown role "${value}"`);
}

export function roleLabel(role: RoleOrGuest | undefined): string {
  return ROLE_LABELS[role ?? GUEST];
}

/**
 * The addresses typed into the invite box: separated by commas, semicolons, spaces or new lines,
 * trimmed, lower-cased for the duplicate check (the first spelling is kept). `invalid` lists what
 * does not look like an address, so the form can name it before asking the server.
 */
export function parseEmails(text: string): { emails: string[]; invalid: string[] } {
  const seen = new Set<string>();
  const emails: string[] = [];
  const invalid: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const candidate = part.trim().replace(/^<(.*)>$/, '$1');
    if (!candidate) continue;
    if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(candidate)) {
      invalid.push(candidate);
      continue;
    }
    const key = candidate.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    emails.push(candidate);
  }
  return { emails, invalid };
}
