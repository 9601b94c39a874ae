/**
 * Whom the Share dialog offers: the organization's teams and active members who hold no grant of
 * their own on the target yet (changing an existing grant is done on its row), teams first, each
 * group by name. A choice's value is `team:{id}` or `user:{id}`.
 */
import type { Member } from '../members/types';
import type { Team } from '../teams/types';
import type { Grantee } from './queries';
import type { TeamGrant, UserGrant } from './types';

export interface Candidate {
  value: string;
  label: string;
}

const byLabel = (a: Candidate, b: Candidate) => a.label.localeCompare(b.label);

export function shareCandidates(
  members: readonly Member[],
  teams: readonly Team[],
  userGrants: readonly UserGrant[],
  teamGrants: readonly TeamGrant[],
): Candidate[] {
  const grantedUsers = new Set(userGrants.map((grant) => grant.user.id));
  const grantedTeams = new Set(teamGrants.map((grant) => grant.team.id));
  const teamChoices = teams
    .filter((team) => !grantedTeams.has(team.id))
    .map((team) => ({ value: `team:${team.id}`, label: `Team: ${team.title}` }))
    .sort(byLabel);
  const memberChoices = members
    .filter((member) => !member.disabled && !grantedUsers.has(member.id))
    .map((member) => ({
      value: `user:${member.id}`,
      label: member.user.email ? `${member.user.displayName} (${member.user.email})` : member.user.displayName,
    }))
    .sort(byLabel);
  return [...teamChoices, ...memberChoices];
}

/** The grantee a candidate's value names. */
export function granteeOf(value: string): Grantee {
  const match = /^(user|team):(.+)$/s.exec(value);
  if (!match) throw new Error(`not a person or team: "${value}"`);
  return { kind: match[1] as Grantee['kind'], id: match[2] as string };
}
