import type { Static } from 'typebox';
import type { InviteLinkRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import type { Collection } from '../collections/schemas.js';
import type { Space } from '../spaces/schemas.js';
import type { InviteLink } from './schemas.js';

/** Where a person opens an invite link: the HTML page of src/pages/invite.ts. */
export function inviteAppUrl(urls: Urls, organizationId: string, secret: string): string {
  return urls.app(`/invite/${organizationId}/${secret}`);
}

/** The space or collection an invite link leads to, presented as the caller sees it. */
export type PresentedTarget = { space: Static<typeof Space> } | { collection: Static<typeof Collection> };

/**
 * An invite link as the API answers it (`secret` is its id); `redundant` for the caller's role;
 * with its target (`InviteLinkToSpace` / `InviteLinkToCollection`) the role is the `level` there.
 */
export function presentInviteLink(
  row: InviteLinkRow,
  secret: string,
  redundant: boolean,
  urls: Urls,
  target?: PresentedTarget,
): Static<typeof InviteLink> {
  const grants = target ? { level: row.role as Role | null, ...target } : { role: row.role as Role | null };
  return {
    object: 'invite',
    id: secret,
    ...grants,
    redundant,
    createdAt: row.created_at,
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    ...(row.max_uses !== null ? { maxUses: Number(row.max_uses) } : {}),
    uses: Number(row.uses),
    urls: { app: inviteAppUrl(urls, row.organization_id, secret) },
  };
}

/**
 * An invite link as events carry it (audit log, webhooks): named by its reference, never by its
 * secret, which would let whoever reads the log or receives the webhook join.
 */
export function presentInviteForEvent(row: InviteLinkRow) {
  return {
    object: 'invite' as const,
    ref: row.ref,
    role: row.role,
    ...(row.target_type ? { [row.target_type]: row.target_id } : {}),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    maxUses: row.max_uses === null ? null : Number(row.max_uses),
    uses: Number(row.uses),
  };
}
