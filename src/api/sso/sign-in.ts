/**
 * Admitting a person whose identity a provider vouched for (OpenID Connect or SAML, checked in
 * src/auth): their user, found by the verified email or made, and their membership of the
 * organization the sign-in is for (a SAML provider's, or `OIDC_ORGANIZATION`), which records
 * `member.added` in that organization's audit log. The session itself (and `user.signed_in`) is
 * src/auth/sessions.ts.
 */
import { type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { UserRow } from '../../db/schema.js';
import { recordEvent } from '../../events/record.js';
import { notFound } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { membershipChanged } from '../../permissions/organization.js';
import { presentMember } from '../members/present.js';
import * as members from '../members/repo.js';
import { findOrganization } from '../organizations/repo.js';
import { findOrCreateUser } from '../users/repo.js';
import { rememberAssertion } from './repo.js';

export interface VerifiedIdentity {
  /** Verified by the provider (OIDC's `email_verified`; a SAML provider is trusted for its own). */
  email: string;
  displayName: string | null;
}

export interface SsoMembership {
  organizationId: string;
  /** The role of a new member; undefined: the organization's default role. */
  role?: Role | null;
  /** A team new members join. */
  teamId?: string | null;
}

async function addMember(trx: DbOrTrx, urls: Urls, user: UserRow, membership: SsoMembership) {
  const { organizationId } = membership;
  const org = await findOrganization(trx, organizationId);
  if (!org) throw notFound(`organization ${organizationId} not found`);
  const role = membership.role === undefined ? (org.default_role as Role | null) : membership.role;
  if (!(await members.addMember(trx, organizationId, user.id, role, true))) return false;
  if (membership.teamId) {
    await trx
      .insertInto('team_members')
      .values({ team_id: membership.teamId, user_id: user.id, role: 'member', created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  }
  const record = await members.findMember(trx, organizationId, user.id);
  const counts = (await members.memberCounts(trx, organizationId, [user.id])).get(user.id);
  if (!record) throw new Error('the member just added is missing');
  const object = presentMember(record, counts ?? { teams: 0, spaces: 0, sites: 0 }, urls);
  const ctx: Pick<ServiceContext, 'actor'> = { actor: { type: 'user', user, tokenId: null, source: 'api' } };
  await recordEvent(trx, ctx, {
    type: 'member.added',
    organizationId,
    target: { object: 'member', id: user.id, label: user.display_name },
    data: { object },
  });
  return true;
}

/** A SAML assertion, accepted once: its id is remembered (until `expiresAt`) in the sign-in's transaction. */
export interface OnceOnly {
  providerId: string;
  assertionId: string;
  expiresAt: string;
}

/**
 * The user `identity` names (made when new) and, with `membership`, a member of that organization
 * (an existing member keeps their role). Returns the user to start the session for; null when
 * `once` was seen before (a replay: nothing changes).
 */
export async function admitSsoUser(
  db: DbOrTrx,
  urls: Urls,
  identity: VerifiedIdentity,
  membership: SsoMembership | null,
  once?: OnceOnly,
): Promise<UserRow | null> {
  let added: { organizationId: string; userId: string } | null = null;
  const user = await inTransaction(
    db,
    async (trx) => {
      if (
        once &&
        !(await rememberAssertion(trx, once.providerId, once.assertionId, once.expiresAt, new Date().toISOString()))
      ) {
        return null;
      }
      const user = await findOrCreateUser(trx, identity.email, identity.displayName ?? undefined);
      if (membership && (await addMember(trx, urls, user, membership))) {
        added = { organizationId: membership.organizationId, userId: user.id };
      }
      return user;
    },
    { withoutEvent: 'admitSsoUser' },
  );
  if (added && user) membershipChanged((added as { organizationId: string }).organizationId, user.id);
  return user;
}
