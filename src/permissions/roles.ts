/** Role ranking: admin > create > review > edit > comment > read. */
import { ROLES, type Role } from '../lib/schemas.js';

const RANK: Record<Role, number> = Object.fromEntries(ROLES.map((role, i) => [role, ROLES.length - i])) as Record<
  Role,
  number
>;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && value in RANK;
}

/** Whether `role` (null/undefined: no role) grants at least `needed`. */
export function atLeast(role: Role | null | undefined, needed: Role): boolean {
  return role != null && RANK[role] >= RANK[needed];
}

/** The highest of `roles`, ignoring null/undefined; null when none. */
export function highest(roles: Iterable<Role | null | undefined>): Role | null {
  let best: Role | null = null;
  for (const role of roles) {
    if (role != null && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}

/** Numeric rank (0 for no role), for sorting. */
export function rank(role: Role | null | undefined): number {
  return role == null ? 0 : RANK[role];
}
