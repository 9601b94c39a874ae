/**
 * Every change of an organization's SAML providers: create, update, delete. Only the
 * organization's admins manage them (404 for non-members, 403 for other members); each change
 * records its event in its own transaction. Signing people in is sign-in.ts.
 */
import type { Static } from 'typebox';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { SamlProviderRow, SamlProvidersTable } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import type { Urls } from '../../lib/urls.js';
import { requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { findOrganization } from '../organizations/repo.js';
import { presentTeam } from '../teams/present.js';
import { findTeam, teamCounts } from '../teams/repo.js';
import { normalizeCertificate } from './certificate.js';
import { presentProvider } from './present.js';
import * as repo from './repo.js';
import type { SamlProvider } from './schemas.js';

export interface ProviderInput {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: Role | null;
}

/** 404 unless a member of the organization, 403 unless its admin. */
export async function authorizeSamlProviders(db: DbOrTrx, organizationId: string, userId: string, action: string) {
  const membership = await requireOrgMember(db, organizationId, userId);
  requireOrgRole(membership, 'admin', action);
}

/** The provider as an admin of its organization sees it; 404 when it is not there. */
export async function loadProvider(db: DbOrTrx, organizationId: string, userId: string, providerId: string) {
  await authorizeSamlProviders(db, organizationId, userId, 'manage SAML providers');
  const provider = await repo.findProvider(db, organizationId, providerId);
  if (!provider) throw notFound(`SAML provider ${providerId} not found`);
  return provider;
}

/** The provider presented, with its default team (when that team still exists). */
export async function presented(db: DbOrTrx, row: SamlProviderRow, urls: Urls): Promise<Static<typeof SamlProvider>> {
  let team = null;
  if (row.default_team_id) {
    const found = await findTeam(db, row.organization_id, row.default_team_id);
    if (found) {
      const counts = (await teamCounts(db, [found.id])).get(found.id) ?? { members: 0, spaces: 0 };
      team = presentTeam(found, counts, true);
    }
  }
  return presentProvider(row, team, urls);
}
/** The columns `input` sets, checked: a parseable certificate, a team of the organization. */
async function changesOf(db: DbOrTrx, organizationId: string, input: ProviderInput) {
  const changes: Partial<SamlProvidersTable> = {};
  if (input.label !== undefined) changes.label = input.label.trim();
  if (changes.label === '') throw badRequest('body/label must not be blank');
  if (input.entityID !== undefined) changes.entity_id = input.entityID;
  if (input.ssoURL !== undefined) changes.sso_url = input.ssoURL;
  if (input.certificate !== undefined) {
    const pem = normalizeCertificate(input.certificate);
    if (!pem) throw badRequest('body/certificate is not an X.509 certificate (PEM, or the base64 of its DER)');
    changes.certificate = pem;
  }
  if (input.defaultTeam !== undefined) {
    if (input.defaultTeam === '') changes.default_team_id = null;
    else if (!(await findTeam(db, organizationId, input.defaultTeam))) {
      throw badRequest(`body/defaultTeam: team ${input.defaultTeam} is not a team of this organization`);
    } else changes.default_team_id = input.defaultTeam;
  }
  if (input.defaultRole !== undefined) changes.default_role = input.defaultRole;
  return changes;
}

async function recordProviderEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  object: Static<typeof SamlProvider>,
  organizationId: string,
  previous?: Record<string, unknown>,
) {
  await recordEvent(trx, ctx, {
    type,
    organizationId,
    target: { object: 'saml-provider', id: object.id, label: object.label },
    data: { object, ...(previous ? { previous } : {}) },
  });
}

export async function createProvider(
  ctx: ServiceContext,
  organizationId: string,
  input: ProviderInput & { label: string },
): Promise<Static<typeof SamlProvider>> {
  await authorizeSamlProviders(ctx.db, organizationId, actingUser(ctx).id, 'manage SAML providers');
  const changes = await changesOf(ctx.db, organizationId, input);
  return inTransaction(ctx.db, async (trx) => {
    const org = await findOrganization(trx, organizationId);
    if (!org) throw notFound(`organization ${organizationId} not found`);
    const now = nowIso();
    const row = await repo.insertProvider(trx, {
      id: newId(),
      organization_id: organizationId,
      label: input.label.trim(),
      entity_id: null,
      sso_url: null,
      certificate: null,
      default_team_id: null,
      // Without one, people who join through the provider get the organization's default role.
      default_role: org.default_role,
      created_at: now,
      updated_at: now,
      ...changes,
    });
    const object = await presented(trx, row, ctx.urls);
    await recordProviderEvent(trx, ctx, 'saml_provider.created', object, organizationId);
    return object;
  });
}

export async function updateProvider(
  ctx: ServiceContext,
  organizationId: string,
  providerId: string,
  input: ProviderInput,
): Promise<Static<typeof SamlProvider>> {
  const before = await loadProvider(ctx.db, organizationId, actingUser(ctx).id, providerId);
  const changes = { ...(await changesOf(ctx.db, organizationId, input)), updated_at: nowIso() };
  return inTransaction(ctx.db, async (trx) => {
    const previous = await presented(trx, before, ctx.urls);
    const object = await presented(trx, { ...before, ...changes }, ctx.urls);
    const changed = previousValues(previous, object);
    // An update that changes nothing writes nothing and records nothing.
    if (Object.keys(changed).length === 0) return object;
    await repo.updateProvider(trx, providerId, changes);
    await recordProviderEvent(trx, ctx, 'saml_provider.updated', object, organizationId, changed);
    return object;
  });
}

/** Deletes the provider; false when there was none (the official answer is then 204, else 205). */
export async function deleteProvider(ctx: ServiceContext, organizationId: string, providerId: string) {
  await authorizeSamlProviders(ctx.db, organizationId, actingUser(ctx).id, 'manage SAML providers');
  return inTransaction(ctx.db, async (trx) => {
    const row = await repo.findProvider(trx, organizationId, providerId);
    if (!row) return false;
    const object = await presented(trx, row, ctx.urls);
    await repo.deleteProvider(trx, providerId);
    await recordProviderEvent(trx, ctx, 'saml_provider.deleted', object, organizationId);
    return true;
  });
}
