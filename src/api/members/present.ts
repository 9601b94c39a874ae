import type { Static } from 'typebox';
import type { Role } from '../../core/schemas.js';
import type { Urls } from '../../core/urls.js';
import type { Db } from '../../db/database.js';
import { presentUser } from '../users/present.js';
import { type MemberCounts, type MemberRecord, memberCounts } from './repo.js';
import type { Member } from './schemas.js';

export function presentMember(record: MemberRecord, counts: MemberCounts, urls: Urls): Static<typeof Member> {
  return {
    object: 'member',
    id: record.user_id,
    role: record.role as Role | null,
    user: presentUser({ id: record.user_id, ...record }, urls),
    disabled: record.disabled === 1,
    joinedAt: record.joined_at,
    ...(record.last_seen_at ? { lastSeenAt: record.last_seen_at } : {}),
    sso: record.sso === 1,
    ...counts,
  };
}

/** Presents a batch of members with their counts, loaded in one pass. */
export async function presentMembers(
  db: Db,
  organizationId: string,
  records: MemberRecord[],
  urls: Urls,
): Promise<Static<typeof Member>[]> {
  const counts = await memberCounts(
    db,
    organizationId,
    records.map((r) => r.user_id),
  );
  return records.map((r) => presentMember(r, counts.get(r.user_id) ?? { teams: 0, spaces: 0, sites: 0 }, urls));
}
