/**
 * The change requests of a whole organization (`listChangeRequestsForOrganization`): those of the
 * spaces the caller may read (the handler resolves them), with the official filters. Contributors
 * are found as the contributors endpoint counts them: the creator, whoever made one of its
 * revisions (walked through first parents from its current revision to the one it started from),
 * and whoever commented in it.
 */
import type { Static } from 'typebox';
import type { DbOrTrx } from '../../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { type Page, paginate } from '../../lib/paging.js';
import type { ListOrgChangeRequestsQuery } from './schemas.js';

/** The spaces of the organization that are not deleted, with what resolving a role on them needs. */
export function listOrganizationSpaceNodes(db: DbOrTrx, organizationId: string) {
  return db
    .selectFrom('spaces')
    .select(['id', 'parent_id', 'default_level'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** The spaces published by `siteId` when it is a site of the organization (none otherwise). */
export async function siteSpaceIds(db: DbOrTrx, organizationId: string, siteId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('site_spaces')
    .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
    .select('site_spaces.space_id')
    .where('sites.id', '=', siteId)
    .where('sites.organization_id', '=', organizationId)
    .execute();
  return new Set(rows.map((r) => r.space_id));
}

/**
 * Of the change requests of `spaceIds` in `statuses`, those `userId` contributed to by a revision or
 * a comment (the creator is matched by the caller's query).
 */
async function contributedTo(db: DbOrTrx, spaceIds: string[], statuses: string[], userId: string): Promise<string[]> {
  const commented = await db
    .selectFrom('comments')
    .innerJoin('change_requests', 'change_requests.id', 'comments.change_request_id')
    .select('change_requests.id')
    .distinct()
    .where('comments.posted_by', '=', userId)
    .where('change_requests.space_id', 'in', spaceIds)
    .where('change_requests.status', 'in', statuses)
    .execute();
  const ids = new Set(commented.map((r) => r.id));
  // Only spaces where the user wrote a revision can hold change requests the user edited.
  const edited = await db
    .selectFrom('revisions')
    .select('space_id')
    .distinct()
    .where('created_by', '=', userId)
    .where('space_id', 'in', spaceIds)
    .execute();
  const spaces = edited.map((r) => r.space_id);
  if (spaces.length === 0) return [...ids];
  const [revisions, candidates] = await Promise.all([
    db.selectFrom('revisions').select(['id', 'parents', 'created_by']).where('space_id', 'in', spaces).execute(),
    db
      .selectFrom('change_requests')
      .select(['id', 'revision_id', 'revision_initial'])
      .where('space_id', 'in', spaces)
      .where('status', 'in', statuses)
      .execute(),
  ]);
  const byId = new Map(revisions.map((r) => [r.id, r]));
  for (const cr of candidates) {
    if (ids.has(cr.id)) continue;
    const seen = new Set<string>();
    for (let id: string | undefined = cr.revision_id; id && id !== cr.revision_initial && !seen.has(id); ) {
      seen.add(id);
      const row = byId.get(id);
      if (!row) break;
      if (row.created_by === userId) {
        ids.add(cr.id);
        break;
      }
      id = (JSON.parse(row.parents) as string[])[0];
    }
  }
  return [...ids];
}

/** A page of the change requests of `spaceIds` (the readable, filtered spaces) matching the query. */
export async function listOrganizationChangeRequests(
  db: DbOrTrx,
  spaceIds: string[],
  query: Static<typeof ListOrgChangeRequestsQuery>,
): Promise<Page<ChangeRequestRow>> {
  const statuses = query.status && query.status.length > 0 ? query.status : ['open'];
  // Site topics and style guide runs do not exist in Bindery: no change request comes from one.
  const none = spaceIds.length === 0 || query.topic !== undefined || query.styleguideRun !== undefined;
  let q = db
    .selectFrom('change_requests')
    .selectAll('change_requests')
    .where('change_requests.space_id', 'in', none ? [''] : spaceIds)
    .where('change_requests.status', 'in', statuses);
  if (query.creator) q = q.where('change_requests.created_by', '=', query.creator);
  if (query.requestedReviewer) {
    const reviewer = query.requestedReviewer;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('change_request_reviewers')
          .select('change_request_reviewers.user_id')
          .whereRef('change_request_reviewers.change_request_id', '=', 'change_requests.id')
          .where('change_request_reviewers.user_id', '=', reviewer),
      ),
    );
  }
  if (query.contributor && !none) {
    const contributor = query.contributor;
    const ids = await contributedTo(db, spaceIds, statuses, contributor);
    q = q.where((eb) =>
      eb.or([
        eb('change_requests.created_by', '=', contributor),
        ...(ids.length > 0 ? [eb('change_requests.id', 'in', ids)] : []),
      ]),
    );
  }
  const column = query.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
  return paginate(
    q,
    [
      { column: `change_requests.${column}`, direction: 'desc', value: (r) => r[column] },
      // Ids are unique: a total order among equal timestamps across spaces.
      { column: 'change_requests.id', direction: 'desc', value: (r) => r.id },
    ],
    query,
  );
}

/** The rows of the spaces `ids`, by id (the spaces of a page of change requests). */
export async function spaceRowsByIds(db: DbOrTrx, ids: string[]): Promise<Map<string, SpaceRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('spaces').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
