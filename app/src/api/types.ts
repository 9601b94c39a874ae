/** The API objects the app reads, as far as it reads them (the official shapes have more fields). */
export interface Urls {
  app: string;
  location?: string;
  published?: string;
}

export interface Organization {
  object: 'organization';
  id: string;
  title: string;
  /** Whether invite links can be made and used (an admin turns it on). */
  inviteLinks: boolean;
  /**
   * What the signed-in person may do in it: `admin` changes members, teams and invite links,
   * manages webhooks and reads the audit log; `createContent` makes spaces, collections and sites.
   */
  permissions: { admin: boolean; createContent: boolean };
  urls: Urls;
}

export interface Collection {
  object: 'collection';
  id: string;
  title: string;
  parent?: string;
  urls: Urls;
  /** What the caller may do with it; `admin`: change who has access, rename, move, delete. */
  permissions: { admin: boolean };
}

export interface Space {
  object: 'space';
  id: string;
  title: string;
  emoji?: string;
  visibility: string;
  organization: string;
  parent?: string;
  urls: Urls;
  /**
   * What the caller may do (the API's flags, decided by the server's own rule: src/permissions):
   * `admin` changes who has access; `edit` offers "Edit" (and a change request's "Update from live"
   * and reviewers); `comment` comments; `merge` offers a change request's "Merge".
   */
  permissions: { admin: boolean; edit?: boolean; comment?: boolean; merge?: boolean };
}

export interface RevisionPage {
  id: string;
  title: string;
  emoji?: string;
  kind?: string;
  type: 'document' | 'group' | 'link' | 'computed';
  path?: string;
  slug?: string;
  pages?: RevisionPage[];
  href?: string;
}

export interface Revision {
  object: 'revision';
  id: string;
  pages: RevisionPage[];
}

export interface List<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}
