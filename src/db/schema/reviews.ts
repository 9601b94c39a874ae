/** Tables of comments and change request reviews (migration 0013). */
import type { Selectable } from 'kysely';

/** A comment on a space or in a change request; a reply when `parent_id` is set. */
export interface CommentsTable {
  id: string;
  space_id: string;
  /** The change request it was posted in; null for a comment on the space. */
  change_request_id: string | null;
  /** The comment this one replies to; null for a top-level comment. */
  parent_id: string | null;
  /** The review it was posted with, if any. */
  review_id: string | null;
  /** The revision the target was read in when the comment was posted. */
  revision_id: string;
  page_id: string | null;
  node_id: string | null;
  /** The body as a JSON document. */
  body: string;
  /** JSON array of the ids of the users mentioned in the body. */
  mentions: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
}

export interface CommentReactionsTable {
  comment_id: string;
  user_id: string;
  emoji: string;
  reacted_at: string;
}

export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  /** Who requested the review, when the reviewer was a requested reviewer. */
  requested_by: string | null;
  status: string;
  /** The change request's revision when the review was submitted. */
  revision_id: string;
  comment_id: string | null;
  created_at: string;
  updated_at: string;
}

export type CommentRow = Selectable<CommentsTable>;
export type CommentReactionRow = Selectable<CommentReactionsTable>;
export type ChangeRequestReviewRow = Selectable<ChangeRequestReviewsTable>;
