/**
 * A user's own sessions and access tokens: revoking a session, making and revoking a token. Each
 * takes effect at once here and, through the change feed, in every other process (the caches of
 * src/core/sessions.ts and src/core/tokens.ts).
 */
import { accountChange } from '../../auth/account.js';
import { presentSessionEvent } from '../../auth/sessions.js';
import { actingUser, type ServiceContext } from '../../core/service.js';
import { deleteSession, findSession } from '../../core/sessions.js';
import { type CreatedToken, findToken } from '../../core/tokens.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { Scope } from '../../lib/scopes.js';
import { issueToken, revokeIssuedToken } from '../../services/tokens.js';

/** Ends one of the caller's sessions (404 for another user's, as for one that does not exist). */
export async function revokeSession(ctx: ServiceContext, sessionId: string): Promise<void> {
  const user = actingUser(ctx);
  await accountChange(ctx, user.id, async (trx, record) => {
    const session = await findSession(trx, sessionId);
    if (!session || session.user_id !== user.id) throw notFound(`session ${sessionId} not found`);
    await deleteSession(trx, sessionId);
    await record(
      'session.revoked',
      { object: 'session', id: session.id, label: user.display_name },
      presentSessionEvent(session),
    );
  });
}

/**
 * Only a caller with every right of the user (a session, or a token without scopes) manages tokens:
 * a token limited to some scopes must not mint itself a broader one.
 */
function requireUnrestricted(scopes: ReadonlySet<string> | null): void {
  if (scopes !== null) {
    throw forbidden('managing access tokens needs a session or a token without scopes');
  }
}

export async function createUserToken(
  ctx: ServiceContext,
  callerScopes: ReadonlySet<string> | null,
  input: { label: string; scopes?: Scope[]; expiresAt?: string },
): Promise<CreatedToken> {
  requireUnrestricted(callerScopes);
  const label = input.label.trim();
  if (label === '') throw badRequest('body/label must not be blank');
  let expiresAt: Date | undefined;
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) throw badRequest('body/expiresAt must be a date-time');
    if (expiresAt.getTime() <= Date.now()) throw badRequest('body/expiresAt must be in the future');
  }
  return issueToken(ctx, actingUser(ctx), { label, scopes: input.scopes, expiresAt });
}

/** Revokes one of the caller's tokens (404 for another user's); revoking a revoked one is a 404 too. */
export async function revokeUserToken(
  ctx: ServiceContext,
  callerScopes: ReadonlySet<string> | null,
  tokenId: string,
): Promise<void> {
  requireUnrestricted(callerScopes);
  const user = actingUser(ctx);
  const token = await findToken(ctx.db, tokenId);
  if (!token || token.user_id !== user.id || token.revoked_at !== null) throw notFound(`token ${tokenId} not found`);
  await revokeIssuedToken(ctx, tokenId);
}
