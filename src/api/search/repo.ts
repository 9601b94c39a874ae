/** What content search reads besides the index: an organization's live spaces and the pages of a result. */
import { flattenPages, loadRevision } from '../../content/store.js';
import type { DbOrTrx } from '../../core/service.js';
import type { Db } from '../../db/database.js';
import { prepare } from '../../db/prepared.js';
import type { SpaceRow } from '../../db/schema.js';

/** Every search starts with this one: precompiled. */
const liveSpaces = prepare((db, p: { organizationId: string }) =>
  db
    .selectFrom('spaces')
    .selectAll()
    .where('organization_id', '=', p.organizationId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id'),
);

/** The organization's spaces that are not deleted, in tree position order. */
export async function listLiveSpaces(db: DbOrTrx, organizationId: string): Promise<SpaceRow[]> {
  return liveSpaces.all(db, { organizationId });
}

/** What a result shows of a page beyond the index: its description and the titles of its ancestors. */
export interface PageInfo {
  title: string;
  description: string;
  ancestors: string[];
}

/** The pages of the live revision of each of `spaces` by space id, then page id (revisions are cached). */
export async function livePages(db: Db, spaces: SpaceRow[]): Promise<Map<string, Map<string, PageInfo>>> {
  const out = new Map<string, Map<string, PageInfo>>();
  for (const space of spaces) {
    const snapshot = await loadRevision(db, space, space.revision_id);
    const pages = new Map<string, PageInfo>();
    for (const { page, parent } of flattenPages(snapshot?.pages ?? [])) {
      const above = parent ? pages.get(parent.id) : undefined;
      pages.set(page.id, {
        title: page.title,
        description: page.description ?? '',
        ancestors: above ? [...above.ancestors, above.title] : [],
      });
    }
    out.set(space.id, pages);
  }
  return out;
}
