/**
 * What an invite link gives access to, as the "Gives access to" choice holds it (`organization`,
 * `space:{id}`, `collection:{id}`), and the official `createOrganizationInvite` body it becomes.
 */
import type { InviteLinkLimits, InviteLinkTarget } from './queries';
import type { InviteLink, RoleOrGuest } from './types';

export const ORGANIZATION_TARGET = 'organization';

export function inviteLinkBody(target: string, role: RoleOrGuest): InviteLinkTarget {
  if (target === ORGANIZATION_TARGET) return { role };
  const [kind, id] = target.split(/:(.*)/s) as [string, string | undefined];
  if (!id) throw new Error(`unknown invite target "${target}"`);
  if (kind === 'space') return { level: role, space: id };
  if (kind === 'collection') return { level: role, collection: id };
  throw new Error(`unknown invite target "${target}"`);
}

/** What a listed link opens: its space or collection by title, else the organization. */
export function inviteLinkTargetLabel(link: Pick<InviteLink, 'space' | 'collection'>): string {
  if (link.space) return `Space: ${link.space.title}`;
  if (link.collection) return `Collection: ${link.collection.title}`;
  return 'The whole organization';
}

/**
 * The limits of a new link from its form: "Expires on" (a date, `YYYY-MM-DD`: the link works to the
 * end of that day where the admin is) and "Maximum uses" (a whole number from 1). Empty fields are
 * no limit; a bad value is an error message naming the field.
 */
export function inviteLinkLimits(
  expiresOn: string,
  maxUses: string,
  timeZoneEnd: (date: string) => Date = (date) => new Date(`${date}T23:59:59.999`),
): InviteLinkLimits | { error: string } {
  const limits: InviteLinkLimits = {};
  if (expiresOn) {
    const end = /^\d{4}-\d{2}-\d{2}$/.test(expiresOn) ? timeZoneEnd(expiresOn) : new Date(Number.NaN);
    if (Number.isNaN(end.getTime())) return { error: 'Expires on: not a date' };
    limits.expiresAt = end.toISOString();
  }
  if (maxUses.trim()) {
    const uses = Number(maxUses);
    if (!Number.isInteger(uses) || uses < 1) return { error: 'Maximum uses: a whole number from 1' };
    limits.maxUses = uses;
  }
  return limits;
}
