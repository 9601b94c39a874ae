export interface ChangeRequest {
  object: 'change-request';
  id: string;
  number: number;
  status: 'draft' | 'open' | 'archived' | 'merged';
  subject?: string;
  description?: string;
  createdBy?: { id: string; displayName: string };
  createdAt: string;
  updatedAt?: string;
  revision: string;
  revisionInitial: string;
  outdated?: boolean;
  space?: string | { id: string };
  urls: { app: string; location?: string };
}

export interface ChangedPage {
  id: string;
  title: string;
  path?: string;
}

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes?: Record<string, unknown> }
  | { type: 'page_moved'; page: ChangedPage }
  | { type: 'file_created' | 'file_edited' | 'file_deleted'; file: { id: string; name: string } }
  | {
      type: 'reusable_content_created' | 'reusable_content_edited' | 'reusable_content_deleted';
      reusableContent: { id: string; title: string };
    }
  | { type: string; [key: string]: unknown };

export interface SemanticChanges {
  changes: SemanticChange[];
  more?: number;
}

export interface Review {
  id: string;
  status: 'approved' | 'changes-requested';
  reviewer: { id: string; displayName: string };
  createdAt: string;
}

/** A requested reviewer (a person; the official type also has teams). */
export interface RequestedReviewer {
  kind: 'user' | 'team';
  user?: { id: string; displayName: string };
  team?: { id: string; title: string };
  requestedBy?: { id: string; displayName: string };
}
