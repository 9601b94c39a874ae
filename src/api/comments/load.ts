/** What presenting a batch of comments or replies needs, loaded in a fixed number of queries. */

import type { DbOrTrx } from '../../core/service.js';
import type { CommentRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import { findUserById, findUsersByIds } from '../users/repo.js';
import type { BodyFormat } from './body.js';
import { type CommentContext, referencedUsers } from './present.js';
import { reactionsOf, replyStats } from './repo.js';

export async function loadCommentContext(
  db: DbOrTrx,
  urls: Urls,
  viewer: CommentContext['viewer'],
  rows: CommentRow[],
  format: BodyFormat = 'document',
): Promise<CommentContext> {
  const ids = rows.map((r) => r.id);
  // Replies have no replies of their own: only top-level rows need the counts.
  const topLevel = rows.filter((r) => r.parent_id === null).map((r) => r.id);
  const [reactions, stats] = await Promise.all([reactionsOf(db, ids), replyStats(db, topLevel)]);
  const users = await findUsersByIds(db, referencedUsers(rows, reactions, stats));
  return { urls, users, reactions, replyStats: stats, viewer, format };
}

/**
 * What presenting `row` needs when it was inserted in the transaction `trx` runs: it has no
 * reactions and no replies yet (both reference it, and no one else sees it before the commit), so
 * only its author is read.
 */
export async function newCommentContext(
  trx: DbOrTrx,
  urls: Urls,
  viewer: CommentContext['viewer'],
  row: CommentRow,
): Promise<CommentContext> {
  const author = await findUserById(trx, row.posted_by);
  const users = new Map(author ? [[author.id, author]] : []);
  return { urls, users, reactions: [], replyStats: [], viewer, format: 'document' };
}
