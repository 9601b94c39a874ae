/**
 * What an invite link gives access to, as the "Gives access to" choice holds it (`organization`,
 * `space:{id}`, `collection:{id}`), and the official `createOrganizationInvite` body it becomes.
 */
import type { InviteLinkTarget } from './queries';
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
