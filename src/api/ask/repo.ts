/** What answering needs from the database: the organization's `ai` setting and its live spaces. */
import type { DbOrTrx } from '../../core/service.js';
import type { SpaceRow } from '../../db/schema.js';

/** The organization's id and `ai` setting (1 on, 0 off), or undefined when there is none. */
export async function findOrganizationAi(db: DbOrTrx, organizationId: string) {
  return db.selectFrom('organizations').select(['id', 'ai']).where('id', '=', organizationId).executeTakeFirst();
}

/** The organization's live spaces in tree position order (the order answers cite them in). */
export async function listLiveSpaces(db: DbOrTrx, organizationId: string): Promise<SpaceRow[]> {
  return db
    .selectFrom('spaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}
