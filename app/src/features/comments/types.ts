import type { JSONDocument } from '../document/types';

/** The official Comment, as far as the app reads it. */
export interface Comment {
  id: string;
  /** The official Document: Markdown or a JSON document. */
  body: { markdown: string } | { document: JSONDocument } | Record<string, never>;
  postedBy?: { id: string; displayName: string };
  postedAt?: string;
  createdAt?: string;
  status?: 'open' | 'resolved';
  resolvedBy?: { id: string; displayName: string };
  replies?: number;
  /** Where the comment is: a page of the revision, and a block of that page (the official shapes). */
  target?: { page?: { id: string }; node?: { id: string }; changeRequest?: string; review?: string };
}

export interface CommentReply {
  id: string;
  body: Comment['body'];
  postedBy?: { id: string; displayName: string };
  postedAt?: string;
}

/** Whose comments: a space's own, or a change request's (its number or id). */
export interface ThreadScope {
  spaceId: string;
  changeRequest?: string;
}

/** Where a new comment goes: the scope as a whole, a page, or a block of a page. */
export interface CommentAnchor {
  page?: string;
  node?: string;
}
