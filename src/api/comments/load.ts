/** What presenting a batch of comments or replies needs, loaded in a fixed number of queries. */

import type { DbOrTrx } from '../../core/service.js';
import type { CommentRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import { findUsersByIds } from '../users/repo.js';
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
