/** Table types of documents, page versions, file bytes, revisions, change requests and reviewers. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

/** A document body, stored once per distinct content (keyed by its SHA-256). */
export interface ContentDocumentsTable {
  hash: string;
  /** JSON of the official `JSONDocument`. */
  body: string;
  /** JSON array of the content references the document makes (for links and backlinks). */
  links: string;
  created_at: string;
}

/** One version of one page, content-addressed; `data` lists its children's version hashes (a list, src/content/chunked-list.ts). */
export interface PageVersionsTable {
  hash: string;
  page_id: string;
  /** JSON `StoredPage` (see src/content/store.ts). */
  data: string;
  created_at: string;
}

/**
 * A chunk of a long list of a revision (src/content/chunked-list.ts), content-addressed: `data` is
 * JSON `{ "items": [...] }` or `{ "lists": [<hash>, ...] }`.
 */
export interface ContentListsTable {
  hash: string;
  data: string;
  created_at: string;
}

/** File bytes, stored once per distinct content (see src/storage/files.ts). */
export interface FileBlobsTable {
  hash: string;
  bytes: Buffer;
  size: number;
  created_at: string;
}

/**
 * A file uploaded through a signed URL (src/storage/uploads.ts): declared when the URL is made,
 * filled by its one PUT (`blob_hash`, `size`, `uploaded_at`).
 */
export interface StorageUploadsTable {
  id: string;
  organization_id: string;
  created_by: string;
  /** The official StorageUploadKind. */
  kind: string;
  name: string;
  content_type: string;
  /** The declared size: the most bytes the PUT may send. */
  size_limit: number;
  expires_at: string;
  blob_hash: string | null;
  size: number | null;
  uploaded_at: string | null;
  created_at: string;
}

/** An immutable snapshot of a space's content. */
export interface RevisionsTable {
  id: string;
  space_id: string;
  /** JSON string[] of parent revision ids. */
  parents: string;
  /** `edits` or `merge`. */
  type: string;
  /** JSON list (src/content/chunked-list.ts) of the version hashes of the top-level pages. */
  pages: string;
  /** JSON list of `FileEntry`. */
  files: string;
  /** JSON list of `ReusableEntry`. */
  reusable_contents: string;
  /** For a merge revision, the change request merged. */
  merged_from: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  /** 1, 2, … within the space. */
  number: number;
  /** `draft`, `open`, `archived` or `merged`. */
  status: string;
  subject: string;
  created_by: string;
  /** The change request's current revision. */
  revision_id: string;
  /** The live revision it started from. */
  revision_initial: string;
  /** The live revision it was last brought up to date with (`…/update`); null until then. */
  revision_merged_ancestor: string | null;
  /** The live revision its merge produced. */
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  /** The change request's revision when the review was requested. */
  revision_id: string;
  created_at: string;
}

export type StorageUploadRow = Selectable<StorageUploadsTable>;
export type RevisionRow = Selectable<RevisionsTable>;
export type ChangeRequestRow = Selectable<ChangeRequestsTable>;
