/** Table types of collections and spaces, and the roles granted on them. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

/**
 * `default_level` of collections and spaces: `inherit` (take the effective role on the parent, or the
 * organization role at the top), a role (every non-guest member gets at least it), or `none` (only
 * explicit grants; the API shows it as null).
 */
export type DefaultLevelValue = string;

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: DefaultLevelValue;
  /** Order among the siblings (collections and spaces under the same parent), 0-based. */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  edit_mode: string;
  language: string | null;
  icon_url: string | null;
  /** JSON merge rules; null means `{type: inherit}`. */
  merge_rules: string | null;
  default_level: DefaultLevelValue;
  position: number;
  /** The live revision. */
  revision_id: string;
  created_at: string;
  updated_at: string;
  /** Set when soft-deleted: hidden from lists, restorable. */
  deleted_at: string | null;
}

/** A role granted to a user or a team on a space or collection. */
export interface ContentPermissionsTable {
  organization_id: string;
  /** `site`: a grant on a site (`inviteToSite`), which the content resolver never reads as a node. */
  target_type: 'space' | 'collection' | 'site';
  target_id: string;
  principal_type: 'user' | 'team';
  principal_id: string;
  role: string;
  created_at: string;
}

export type CollectionRow = Selectable<CollectionsTable>;
export type SpaceRow = Selectable<SpacesTable>;
