/**
 * Signing in with a password, signing out, and setting a password (by the CLI or with a reset
 * link). Each change is one transaction with its events (src/auth/account.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findUserByEmail, findUserById } from '../api/users/repo.js';
import type { Actor, ServiceContext } from '../core/service.js';
import { deleteSession, deleteSessionsOfUser, verifySession } from '../core/sessions.js';
import { hashSecret } from '../core/tokens.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import type { App } from '../http/app.js';
import { sessionSecretOf } from '../http/auth.js';
import { ApiError, badRequest } from '../lib/errors.js';
import type { Urls } from '../lib/urls.js';
import { canSendMail, sendMail } from '../mail/send.js';
import { accountChange } from './account.js';
import { attemptKeys, clearEmailFailures, recordFailure, retryAfterSeconds } from './attempts.js';
import {
  checkPasswordRules,
  consumeResetToken,
  createResetToken,
  hashPassword,
  passwordMatches,
  RESET_TTL_MS,
  storedPasswordHash,
  writePasswordHash,
} from './passwords.js';
import { type StartedSession, sessionPolicy, startSession, userContext } from './sessions.js';

/** Who acts when nobody is signed in yet (a failed sign-in, a reset request). */
const ANONYMOUS: Actor = Object.freeze({ type: 'system', user: null, tokenId: null, source: 'api' });

const userTarget = (user: UserRow) => ({ object: 'user', id: user.id, label: user.display_name });

/** The one answer to a wrong password and to an unknown email. */
const WRONG = () => new ApiError(401, 'the email or password is not right');

/**
 * Signs in with email and password. A wrong password and an unknown email (or a user without a
 * password) get the same 401 after the same work (a dummy hash is checked); past the attempt limit
 * (src/auth/attempts.ts), 429 with `Retry-After`, whatever the password.
 */
export async function signInWithPassword(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  credentials: { email: string; password: string },
): Promise<StartedSession> {
  const keys = attemptKeys(credentials.email, request.ip);
  const wait = await retryAfterSeconds(app.db, keys);
  if (wait !== null) {
    throw new ApiError(429, 'too many failed sign-ins; try again later', { 'retry-after': String(wait) });
  }
  const user = await findUserByEmail(app.db, credentials.email);
  const stored = user ? await storedPasswordHash(app.db, user.id) : null;
  const matches = await passwordMatches(stored, credentials.password);
  if (!user || !matches) {
    const ctx: ServiceContext = { db: app.db, urls: app.urls, actor: ANONYMOUS };
    await accountChange(ctx, user?.id ?? null, async (trx, record) => {
      await recordFailure(trx, keys);
      if (user) {
        await record('user.sign_in_failed', userTarget(user), {
          object: 'sign-in',
          user: user.id,
          method: 'password',
          clientAddress: request.ip,
        });
      }
    });
    throw WRONG();
  }
  await accountChange(userContext(app, user), user.id, (trx) => clearEmailFailures(trx, user.email));
  return startSession(app, request, reply, { userId: user.id, method: 'password' });
}

/** Ends the request's session, if it has one (the cookie is cleared by the route either way). */
export async function signOut(app: App, request: FastifyRequest): Promise<void> {
  const secret = sessionSecretOf(request);
  if (!secret) return;
  const check = await verifySession(app.db, secret, sessionPolicy(app.config));
  if (!check.ok) return;
  const { session } = check;
  await accountChange(userContext(app, session.user), session.user.id, async (trx, record) => {
    await deleteSession(trx, session.sessionId);
    await record(
      'user.signed_out',
      { object: 'session', id: session.sessionId, label: session.user.display_name },
      {
        object: 'session',
        id: session.sessionId,
        user: session.user.id,
      },
    );
  });
}

/** Sets the password of `user` and ends their sessions but `keepSessionId`. */
async function changePassword(
  ctx: ServiceContext,
  user: UserRow,
  password: string,
  options: { resetToken?: string; keepSessionId?: string | null } = {},
): Promise<boolean> {
  checkPasswordRules(password);
  const passwordHash = await hashPassword(password);
  return accountChange(ctx, user.id, async (trx, record) => {
    if (options.resetToken !== undefined) {
      const owner = await consumeResetToken(trx, options.resetToken);
      if (owner !== user.id) return false;
    }
    await writePasswordHash(trx, user.id, passwordHash);
    const ended = await deleteSessionsOfUser(trx, user.id, options.keepSessionId ?? null);
    await record('user.password_changed', userTarget(user), {
      object: 'user',
      id: user.id,
      sessionsEnded: ended.length,
    });
    return true;
  });
}

/** `bindery user set-password`: sets the password and ends every session of the user. */
export async function setPassword(ctx: ServiceContext, user: UserRow, password: string): Promise<void> {
  await changePassword(ctx, user, password);
}

/** The user a reset token is for, without using it (null: unknown, used or expired). */
async function resetTokenOwner(db: Db, token: string): Promise<UserRow | null> {
  const row = await db
    .selectFrom('password_resets')
    .select('user_id')
    .where('token_hash', '=', hashSecret(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  return row ? ((await findUserById(db, row.user_id)) ?? null) : null;
}

const INVALID_RESET = () =>
  badRequest('the reset link is not valid: it was used already, or it expired; ask for a new one');

/**
 * Sets a password with a reset token (used once, within 30 minutes), ending the user's other
 * sessions: every one but the request's own, when it is the same user's.
 */
export async function confirmPasswordReset(
  app: App,
  request: FastifyRequest,
  input: { token: string; password: string },
): Promise<UserRow> {
  checkPasswordRules(input.password);
  const user = await resetTokenOwner(app.db, input.token);
  if (!user) throw INVALID_RESET();
  const secret = sessionSecretOf(request);
  const current = secret ? await verifySession(app.db, secret, sessionPolicy(app.config)) : null;
  const keep = current?.ok && current.session.user.id === user.id ? current.session.sessionId : null;
  const ctx = { db: app.db, urls: app.urls, actor: ANONYMOUS };
  if (!(await changePassword(ctx, user, input.password, { resetToken: input.token, keepSessionId: keep }))) {
    throw INVALID_RESET();
  }
  return user;
}

/** The reset link of a new token for `user`. */
export async function issueResetLink(ctx: ServiceContext, user: UserRow): Promise<string> {
  const token = await accountChange(ctx, user.id, (trx) => createResetToken(trx, user.id));
  return resetLinkOf(ctx.urls, token);
}

function resetLinkOf(urls: Urls, token: string): string {
  return urls.app(`/auth/reset?token=${encodeURIComponent(token)}`);
}

/**
 * `POST /auth/password-reset`: when the email is a user's and mail can be sent, a reset link is
 * mailed. The caller answers 202 whatever happened, at once (the mail goes in the background), so
 * the answer tells nothing about which emails have accounts.
 */
export async function requestPasswordReset(app: App, email: string): Promise<void> {
  if (!canSendMail(app.config)) return;
  const user = await findUserByEmail(app.db, email);
  if (!user) return;
  const link = await issueResetLink({ db: app.db, urls: app.urls, actor: ANONYMOUS }, user);
  const minutes = RESET_TTL_MS / 60_000;
  sendMail(app.config, {
    to: user.email,
    subject: 'Reset your Bindery password',
    text:
      `Someone (hopefully you) asked to reset the password of ${user.email} on Bindery.\n\n` +
      `Set a new password here (the link works once, for ${minutes} minutes):\n${link}\n\n` +
      'If you did not ask for this, ignore this message: your password stays as it is.\n',
  }).catch((error: unknown) => app.log.warn({ err: error }, 'could not send the password reset mail'));
}
