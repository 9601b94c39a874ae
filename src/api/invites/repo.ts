import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../core/service.js';
import type { InviteLinkRow } from '../../db/schema.js';
import { paginate, type SortKey } from '../../lib/paging.js';

/** How an invite's secret (its id in the API) is stored and looked up. */
export function hashInviteSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The invite of `organizationId` whose secret is `secret`; undefined for another organization's. */
export async function findInviteLink(
  db: DbOrTrx,
  organizationId: string,
  secret: string,
): Promise<InviteLinkRow | undefined> {
  return db
    .selectFrom('invite_links')
    .selectAll()
    .where('secret_hash', '=', hashInviteSecret(secret))
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

const ORDER: SortKey<InviteLinkRow>[] = [
  { column: 'invite_links.created_at', direction: 'desc', value: (r) => r.created_at },
  { column: 'invite_links.ref', direction: 'desc', value: (r) => r.ref },
];

/** The organization's invite links, but those to a space (in the trash too) or a collection that is gone. */
export async function listInviteLinks(db: DbOrTrx, organizationId: string, paging: { page?: string; limit?: number }) {
  const query = db
    .selectFrom('invite_links')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('target_type', 'is', null),
        eb.and([
          eb('target_type', '=', 'space'),
          eb.exists(
            eb
              .selectFrom('spaces')
              .select('spaces.id')
              .whereRef('spaces.id', '=', 'invite_links.target_id')
              .where('spaces.deleted_at', 'is', null),
          ),
        ]),
        eb.and([
          eb('target_type', '=', 'collection'),
          eb.exists(
            eb
              .selectFrom('collections')
              .select('collections.id')
              .whereRef('collections.id', '=', 'invite_links.target_id'),
          ),
        ]),
      ]),
    );
  return paginate(query, ORDER, paging);
}

export async function insertInviteLink(db: DbOrTrx, row: InviteLinkRow): Promise<void> {
  await db.insertInto('invite_links').values(row).execute();
}

export async function updateInviteLink(
  db: DbOrTrx,
  ref: string,
  changes: Partial<Pick<InviteLinkRow, 'role' | 'expires_at' | 'max_uses'>>,
): Promise<void> {
  await db.updateTable('invite_links').set(changes).where('ref', '=', ref).execute();
}

export async function deleteInviteLink(db: DbOrTrx, ref: string): Promise<void> {
  await db.deleteFrom('invite_links').where('ref', '=', ref).execute();
}

/**
 * Counts one use of the invite unless it is used up: one conditional UPDATE, so that two joins at
 * once cannot both take its last use. Whether it counted.
 */
export async function takeInviteUse(db: DbOrTrx, ref: string): Promise<boolean> {
  const result = await db
    .updateTable('invite_links')
    .set({ uses: sql<number>`uses + 1` })
    .where('ref', '=', ref)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
