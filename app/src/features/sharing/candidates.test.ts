import { describe, expect, it } from 'vitest';
import type { Member } from '../members/types';
import type { Team } from '../teams/types';
import { granteeOf, shareCandidates } from './candidates';

const member = (id: string, name: string, options: Partial<Member> = {}): Member => ({
  object: 'member',
  id,
  role: 'read',
  user: { object: 'user', id, displayName: name, email: `${id}@example.test` },
  disabled: false,
  joinedAt: '2026-01-01T00:00:00.000Z',
  teams: 0,
  spaces: 0,
  ...options,
});
const team = (id: string, title: string): Team => ({
  object: 'team',
  id,
  title,
  members: 0,
  spaces: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  permissions: { admin: true, view: true },
});

describe('whom the Share dialog offers', () => {
  it('teams then people, each by name, leaving out who holds a grant and disabled members', () => {
    const members = [
      member('u3', 'Zoe'),
      member('u1', 'Ann'),
      member('u2', 'Bob'),
      member('u4', 'Dee', { disabled: true }),
    ];
    const teams = [team('t2', 'Writers'), team('t1', 'Editors'), team('t3', 'Admins')];
    const candidates = shareCandidates(
      members,
      teams,
      [{ permission: 'read', user: members[2]!.user }],
      [{ permission: 'edit', team: teams[2]! }],
    );
    expect(candidates).toEqual([
      { value: 'team:t1', label: 'Team: Editors' },
      { value: 'team:t2', label: 'Team: Writers' },
      { value: 'user:u1', label: 'Ann (u1@example.test)' },
      { value: 'user:u3', label: 'Zoe (u3@example.test)' },
    ]);
  });

  it('turns a choice back into the person or team it names', () => {
    expect(granteeOf('team:t1')).toEqual({ kind: 'team', id: 't1' });
    expect(granteeOf('user:u:1')).toEqual({ kind: 'user', id: 'u:1' });
    expect(() => granteeOf('site:x')).toThrow('not a person or team');
  });
});
