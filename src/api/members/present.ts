import type { Static } from 'typebox';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { presentUser } from '../users/present.js';
import type { MemberCounts, MemberRecord } from './repo.js';
import type { Member } from './schemas.js';

export function presentMember(record: MemberRecord, counts: MemberCounts, urls: Urls): Static<typeof Member> {
  return {
    object: 'member',
    id: record.user_id,
    role: record.role as Role | null,
    user: presentUser(
      { id: record.user_id, email: record.email, display_name: record.display_name, photo_url: record.photo_url },
      urls,
    ),
    disabled: record.disabled === 1,
    joinedAt: record.joined_at,
    ...(record.last_seen_at ? { lastSeenAt: record.last_seen_at } : {}),
    sso: record.sso === 1,
    ...counts,
  };
}

/** Presents a batch of members with their counts (`memberCounts`, loaded once for the list). */
export function presentMembers(
  records: MemberRecord[],
  counts: Map<string, MemberCounts>,
  urls: Urls,
): Static<typeof Member>[] {
  return records.map((r) => presentMember(r, counts.get(r.user_id) ?? { teams: 0, spaces: 0, sites: 0 }, urls));
}
