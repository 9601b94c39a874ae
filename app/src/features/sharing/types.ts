import type { User } from '../auth/types';
import type { Role } from '../members/types';
import type { Team } from '../teams/types';

/** What is shared: a space or a collection, each with the official permission operations. */
export interface ShareTarget {
  kind: 'space' | 'collection';
  id: string;
  title: string;
  organizationId: string;
  /** The caller may change who has access (the target's `permissions.admin`). */
  admin: boolean;
}

export interface UserGrant {
  permission: Role;
  user: User;
}

export interface TeamGrant {
  permission: Role;
  team: Team;
}
