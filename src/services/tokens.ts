/**
 * Access tokens made and revoked by the CLI (`bindery bootstrap`, `bindery token create|revoke`).
 * A token acts as its user in every organization the user is a member of, so its creation and its
 * revocation are recorded (`token.created`, `token.revoked`) in the audit log of each of them, in
 * the transaction that makes the change. The secret is never part of an event.
 */
import { findUserById } from '../api/users/repo.js';
import { type DbOrTrx, inTransaction, type ServiceContext } from '../core/service.js';
import { type CreatedToken, createToken, findToken, revokeToken } from '../core/tokens.js';
import type { ApiTokenRow as TokenRow, UserRow } from '../db/schema.js';
import { recordEvent } from '../events/record.js';
import type { Scope } from '../lib/scopes.js';

/** The organizations `userId` is an enabled member of (guests too: the token acts in them as well). */
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

/** The token as events show it: never its secret. */
function presentToken(row: TokenRow) {
  return {
    object: 'api-token' as const,
    id: row.id,
    user: row.user_id,
    label: row.label,
    scopes: row.scopes ? (JSON.parse(row.scopes) as string[]) : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

async function recordTokenEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'token.created' | 'token.revoked',
  token: TokenRow,
  owner: Pick<UserRow, 'display_name'> | undefined,
): Promise<void> {
  for (const organizationId of await organizationsOf(trx, token.user_id)) {
    await recordEvent(trx, ctx, {
      type,
      organizationId,
      target: { object: 'api-token', id: token.id, label: owner?.display_name ?? null },
      data: { object: presentToken(token) },
    });
  }
}

/** A new token for `user` (its secret is returned once, here). */
export async function issueToken(
  ctx: ServiceContext,
  user: UserRow,
  options: { scopes?: Scope[]; expiresAt?: Date; label?: string | null } = {},
): Promise<CreatedToken> {
  return inTransaction(
    ctx.db,
    async (trx) => {
      const created = await createToken(trx, user.id, options);
      await recordTokenEvent(trx, ctx, 'token.created', (await findToken(trx, created.id)) as TokenRow, user);
      return created;
    },
    { withoutEvent: 'issueToken' },
  );
}

/** Revokes the token; false when there is no such token (revoking it again changes and records nothing). */
export async function revokeIssuedToken(ctx: ServiceContext, tokenId: string): Promise<boolean> {
  return inTransaction(
    ctx.db,
    async (trx) => {
      const before = await findToken(trx, tokenId);
      if (!before) return false;
      if (before.revoked_at !== null) return true;
      await revokeToken(trx, tokenId);
      const owner = await findUserById(trx, before.user_id);
      await recordTokenEvent(trx, ctx, 'token.revoked', (await findToken(trx, tokenId)) as TokenRow, owner);
      return true;
    },
    { withoutEvent: 'revokeIssuedToken' },
  );
}
