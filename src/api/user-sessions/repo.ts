import type { DbOrTrx } from '../../core/service.js';
import type { ApiTokenRow } from '../../db/schema.js';

/** The user's tokens that are not revoked, newest first (expired ones too: they say when they expired). */
export function listTokensOfUser(db: DbOrTrx, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
