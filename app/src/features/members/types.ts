import type { User } from '../auth/types';

/** An organization role; `null` is a guest (only what is granted to them). */
export type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
export type RoleOrGuest = Role | null;

/** `Member` of `listMembersInOrganizationById`, as far as the app reads it. */
export interface Member {
  object: 'member';
  id: string;
  role: RoleOrGuest;
  user: User;
  disabled: boolean;
  joinedAt: string;
  teams: number;
  spaces: number;
}

/** The official `OrganizationInviteLink` variants, with Bindery's `uses`, limits and `urls.app`. */
export interface InviteLink {
  object: 'invite';
  id: string;
  role?: RoleOrGuest;
  level?: RoleOrGuest;
  space?: { id: string; title: string };
  collection?: { id: string; title: string };
  createdAt: string;
  expiresAt?: string;
  maxUses?: number;
  uses: number;
  urls: { app: string };
}
