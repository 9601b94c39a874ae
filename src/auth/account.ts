/**
 * Changes of a user's own sign-in (sessions begun and ended, passwords, failed attempts): each is
 * recorded in the audit log of every organization the user is an enabled member of, in the
 * transaction of the change, as token events are (src/services/tokens.ts). A user who belongs to
 * no organization has no audit log, so these transactions may commit without an event
 * (`accountChange` in src/core/unevented.ts).
 */
import { type DbOrTrx, inTransaction, type ServiceContext } from '../core/service.js';
import { recordEvent } from '../events/record.js';
import type { EventType } from '../events/types.js';

export type RecordAccountEvent = (
  type: EventType,
  target: { object: string; id: string; label?: string | null },
  object: unknown,
) => Promise<void>;

async function organizationsOf(db: DbOrTrx, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('members')
    .select('organization_id')
    .where('user_id', '=', userId)
    .where('disabled', '=', 0)
    .orderBy('organization_id')
    .execute();
  return rows.map((r) => r.organization_id);
}

/**
 * Runs `change` in one transaction; `record` writes its event in each organization of `userId`
 * (null: a change about no known user, such as a failed sign-in with an unknown email).
 */
export function accountChange<T>(
  ctx: ServiceContext,
  userId: string | null,
  change: (trx: DbOrTrx, record: RecordAccountEvent) => Promise<T>,
): Promise<T> {
  return inTransaction(
    ctx.db,
    async (trx) => {
      let organizations: string[] | null = null;
      const record: RecordAccountEvent = async (type, target, object) => {
        if (userId === null) return;
        organizations ??= await organizationsOf(trx, userId);
        for (const organizationId of organizations) {
          await recordEvent(trx, ctx, { type, organizationId, target, data: { object } });
        }
      };
      return change(trx, record);
    },
    { withoutEvent: 'accountChange' },
  );
}
