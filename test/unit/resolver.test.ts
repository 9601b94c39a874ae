/** The permission model as a table: each row is a situation and the role it must resolve to. */
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/schemas.js';
import { type ContentNode, type GrantRow, grantsFor, resolveRole } from '../../src/permissions/resolver.js';

interface Case {
  name: string;
  orgRole: Role | null;
  member?: boolean;
  /** `type:id` → role granted to the user directly. */
  grants?: Record<string, Role>;
  /** `type:id` → role granted to a team the user belongs to. */
  teamGrants?: Record<string, Role>;
  /** `type:id` → role granted to a team the user does not belong to (must not count). */
  otherTeamGrants?: Record<string, Role>;
  /** Collections: id → [parent, default level]. */
  collections?: Record<string, [string | null, string]>;
  node: ContentNode;
  expected: Role | null;
}

const space = (parent: string | null, level = 'inherit'): ContentNode => ({
  type: 'space',
  id: 's',
  parent_id: parent,
  default_level: level,
});

const cases: Case[] = [
  { name: 'top-level space inherits the organization role', orgRole: 'edit', node: space(null), expected: 'edit' },
  {
    name: 'direct grant above the organization role wins',
    orgRole: 'read',
    grants: { 'space:s': 'review' },
    node: space(null),
    expected: 'review',
  },
  {
    name: 'a lower grant does not lower the inherited role',
    orgRole: 'edit',
    grants: { 'space:s': 'read' },
    node: space(null),
    expected: 'edit',
  },
  {
    name: "a grant to one of the user's teams counts like a direct one",
    orgRole: 'comment',
    teamGrants: { 'space:s': 'create' },
    node: space(null),
    expected: 'create',
  },
  {
    name: 'the highest of a direct grant and a team grant wins',
    orgRole: 'read',
    grants: { 'space:s': 'edit' },
    teamGrants: { 'space:s': 'review' },
    node: space(null),
    expected: 'review',
  },
  {
    name: 'a team grant on a collection above is inherited',
    orgRole: null,
    teamGrants: { 'collection:c': 'edit' },
    collections: { c: [null, 'inherit'] },
    node: space('c'),
    expected: 'edit',
  },
  {
    name: 'a grant to a team the user is not in does not count',
    orgRole: 'read',
    otherTeamGrants: { 'space:s': 'admin' },
    node: space(null),
    expected: 'read',
  },
  {
    name: 'inheritance through two levels of collections',
    orgRole: 'read',
    grants: { 'collection:top': 'edit' },
    collections: { top: [null, 'inherit'], mid: ['top', 'inherit'] },
    node: space('mid'),
    expected: 'edit',
  },
  {
    name: 'defaultLevel on a collection overrides what is above it',
    orgRole: 'edit',
    grants: { 'collection:top': 'admin' },
    collections: { top: [null, 'inherit'], mid: ['top', 'read'] },
    node: space('mid'),
    expected: 'read',
  },
  {
    name: 'defaultLevel on the space overrides its parent',
    orgRole: 'edit',
    collections: { c: [null, 'inherit'] },
    node: space('c', 'comment'),
    expected: 'comment',
  },
  {
    name: 'defaultLevel may raise above the organization role',
    orgRole: 'read',
    node: space(null, 'edit'),
    expected: 'edit',
  },
  { name: 'defaultLevel null leaves only explicit grants', orgRole: 'edit', node: space(null, 'none'), expected: null },
  {
    name: 'defaultLevel null with a grant',
    orgRole: 'edit',
    grants: { 'space:s': 'read' },
    node: space(null, 'none'),
    expected: 'read',
  },
  { name: 'organization admin is admin everywhere', orgRole: 'admin', node: space(null, 'none'), expected: 'admin' },
  { name: 'guest without grants has nothing', orgRole: null, node: space(null), expected: null },
  { name: 'guest gets nothing from a default level', orgRole: null, node: space(null, 'edit'), expected: null },
  {
    name: 'guest with a grant on the space',
    orgRole: null,
    grants: { 'space:s': 'comment' },
    node: space(null),
    expected: 'comment',
  },
  {
    name: 'guest with a grant on a collection above',
    orgRole: null,
    grants: { 'collection:c': 'read' },
    collections: { c: [null, 'inherit'] },
    node: space('c'),
    expected: 'read',
  },
  {
    name: 'a non-member has nothing, whatever grants remain',
    orgRole: 'admin',
    member: false,
    grants: { 'space:s': 'admin' },
    node: space(null),
    expected: null,
  },
  {
    name: 'a collection itself resolves the same way',
    orgRole: 'read',
    grants: { 'collection:c': 'create' },
    collections: { c: [null, 'inherit'] },
    node: { type: 'collection', id: 'c', parent_id: null, default_level: 'inherit' },
    expected: 'create',
  },
];

describe('resolveRole', () => {
  it.each(cases)('$name', (c) => {
    const collections = new Map(
      Object.entries(c.collections ?? {}).map(([id, [parent, level]]) => [
        id,
        { parent_id: parent, default_level: level },
      ]),
    );
    // Grants go through the loaders' own merge (grantsFor), as stored rows of each principal.
    const rows = (principal: string, grants: Record<string, Role> = {}): GrantRow[] =>
      Object.entries(grants).map(([target, role]) => {
        const [target_type, target_id] = target.split(':') as [string, string];
        const [principal_type, principal_id] = principal.split(':') as [string, string];
        return { target_type, target_id, principal_type, principal_id, role };
      });
    const stored = [
      ...rows('user:u', c.grants),
      ...rows('team:mine', c.teamGrants),
      ...rows('team:other', c.otherTeamGrants),
    ];
    const role = resolveRole(
      {
        orgRole: c.orgRole,
        member: c.member ?? true,
        grantOn: grantsFor(stored, ['user:u', 'team:mine']),
        collections,
      },
      c.node,
    );
    expect(role).toBe(c.expected);
  });
});
