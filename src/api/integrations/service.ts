/**
 * Every change of integrations: publish (a new integration, or a new version by an admin of the
 * owning organization), install on an organization (its admins), enable an installation on a
 * space (admins of the space). Secrets are sealed before they are stored. Publishing records
 * `integration.published` in the owning organization (every version is a publication); installing
 * records `integration.installation_setup` / `integration.space_installation_setup` in the
 * organization installed on (GitBook's `installation_setup` / `space_installation_setup`).
 */
import type { Static } from 'typebox';
import { encryptSecret } from '../../core/secrets.js';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type {
  IntegrationInstallationRow,
  IntegrationRow,
  IntegrationSpaceInstallationRow,
  SpaceRow,
} from '../../db/schema.js';
import { recordEvent } from '../../events/record.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { type Authorized, authorizeSpace } from '../../permissions/content.js';
import {
  canSeeIntegration,
  type IntegrationViewer,
  isIntegrationAdmin,
  loadIntegrationViewer,
  requireVisibleIntegration,
} from '../../permissions/integrations.js';
import { decodeImage } from './images.js';
import { presentInstallation, presentIntegration, presentSpaceInstallation } from './present.js';
import {
  createInstallation,
  findInstallation,
  findInstallationInOrg,
  findIntegration,
  findOrganizationByKey,
  type Image,
  installOnSpace,
  saveIntegration,
} from './repo.js';
import type { PublishBody } from './schemas.js';

/** Targets an integration may be enabled on spaces with. */
const SPACE_TARGETS = new Set(['all', 'space']);

/** The integration `name` if the viewer may see it, else 404. */
export async function findVisibleIntegration(
  db: DbOrTrx,
  name: string,
  viewer: IntegrationViewer,
): Promise<IntegrationRow> {
  return requireVisibleIntegration(await findIntegration(db, name), name, viewer);
}

/**
 * Publishes `name`: version 1 (`created`), or the next version, every field replaced (secrets
 * kept when absent). Returns the caller's view (for presenting) and whether it was created.
 */
export async function publishIntegration(
  ctx: ServiceContext,
  name: string,
  body: Static<typeof PublishBody>,
  options: { secretsKey: () => Promise<Buffer> },
): Promise<{ created: boolean; viewer: IntegrationViewer }> {
  const viewer = await loadIntegrationViewer(ctx.db, actingUser(ctx).id);
  const existing = await findIntegration(ctx.db, name);
  if (existing && !isIntegrationAdmin(viewer, existing)) {
    if (!canSeeIntegration(viewer, existing)) throw notFound(`integration ${name} not found`);
    throw forbidden(`only admins of the organization that owns integration ${name} can publish it`);
  }
  const org = await findOrganizationByKey(ctx.db, body.organization);
  const role = org ? viewer.roles.get(org.id) : undefined;
  if (!org || role === undefined) throw notFound(`organization ${body.organization} not found`);
  if (role !== 'admin') throw forbidden('you need the admin role in the organization to publish integrations');
  if (existing && existing.organization_id !== org.id) {
    throw badRequest(`body/organization: integration ${name} belongs to another organization`);
  }

  const images: Image[] = [];
  if (body.icon !== undefined) images.push(decodeImage(body.icon, 'body/icon', 'icon'));
  const previews = body.previewImages ?? [];
  previews.forEach((p, i) => {
    images.push(decodeImage(p, `body/previewImages/${i}`, `preview-${i}`));
  });
  const blocks = body.blocks ?? [];
  const contentSources = body.contentSources ?? [];
  const secrets =
    body.secrets === undefined
      ? undefined
      : encryptSecret(await options.secretsKey(), JSON.stringify(body.secrets), name);
  const values = {
    name,
    organization_id: org.id,
    title: body.title,
    description: body.description,
    summary: body.summary ?? null,
    visibility: body.visibility ?? 'public',
    target: body.target ?? 'all',
    scopes: JSON.stringify(body.scopes),
    categories: JSON.stringify(body.categories ?? []),
    blocks: JSON.stringify(blocks),
    content_sources: JSON.stringify(contentSources),
    configurations: JSON.stringify(body.configurations ?? {}),
    external_links: JSON.stringify(body.externalLinks ?? []),
    content_security_policy:
      body.contentSecurityPolicy === undefined ? null : JSON.stringify(body.contentSecurityPolicy),
    script: body.script,
    secrets,
    has_blocks: blocks.length > 0 ? 1 : 0,
    has_content_sources: contentSources.length > 0 ? 1 : 0,
    block_urls: blocks
      .flatMap((b) => b.urlUnfurl ?? [])
      .map((u) => u.toLowerCase())
      .join('\n'),
    preview_count: previews.length,
    has_icon: body.icon !== undefined ? 1 : 0,
  };
  await inTransaction(ctx.db, async (trx) => {
    await saveIntegration(trx, values, images, existing !== undefined);
    const saved = (await findIntegration(trx, name)) as IntegrationRow;
    await recordEvent(trx, ctx, {
      type: 'integration.published',
      organizationId: org.id,
      target: { object: 'integration', id: name, label: saved.title },
      data: { object: presentIntegration(saved, org, viewer, ctx.urls) },
    });
  });
  return { created: !existing, viewer };
}

/** Installs the integration on an organization the caller administers (409 when it already is). */
export async function installIntegration(
  ctx: ServiceContext,
  name: string,
  organizationId: string,
): Promise<IntegrationInstallationRow> {
  const viewer = await loadIntegrationViewer(ctx.db, actingUser(ctx).id);
  await findVisibleIntegration(ctx.db, name, viewer);
  const role = viewer.roles.get(organizationId);
  if (role === undefined) throw notFound(`organization ${organizationId} not found`);
  if (role !== 'admin') throw forbidden('you need the admin role in the organization to install integrations');
  if (await findInstallationInOrg(ctx.db, name, organizationId)) {
    throw conflict(`integration ${name} is already installed on organization ${organizationId}`);
  }
  return inTransaction(ctx.db, async (trx) => {
    const row = await createInstallation(trx, name, organizationId);
    await recordEvent(trx, ctx, {
      type: 'integration.installation_setup',
      organizationId,
      target: { object: 'integration-installation', id: row.id, label: name },
      data: { object: presentInstallation(row, 0, ctx.urls) },
    });
    return row;
  });
}

/** Enables an installation on a space of its organization that the caller administers (idempotent). */
export async function installIntegrationOnSpace(
  ctx: ServiceContext,
  name: string,
  installationId: string,
  spaceId: string,
): Promise<{
  installation: IntegrationInstallationRow;
  row: IntegrationSpaceInstallationRow;
  space: Authorized<SpaceRow>;
}> {
  const userId = actingUser(ctx).id;
  const viewer = await loadIntegrationViewer(ctx.db, userId);
  const integration = await findVisibleIntegration(ctx.db, name, viewer);
  const installation = await findInstallation(ctx.db, name, installationId);
  if (!installation || !viewer.roles.has(installation.organization_id)) {
    throw notFound(`installation ${installationId} not found`);
  }
  const space = await authorizeSpace(ctx.db, userId, spaceId, 'admin', 'install integrations on it');
  if (space.row.organization_id !== installation.organization_id) {
    throw badRequest(`body/space: space ${space.row.id} is not in the organization of the installation`);
  }
  if (!SPACE_TARGETS.has(integration.target)) {
    throw badRequest(`integration ${name} cannot be installed on spaces (its target is ${integration.target})`);
  }
  const row = await inTransaction(ctx.db, async (trx) => {
    const installed = await installOnSpace(trx, installation, space.row.id);
    // Idempotent: enabling it again changes nothing and records nothing.
    if (installed.created) {
      await recordEvent(trx, ctx, {
        type: 'integration.space_installation_setup',
        organizationId: installation.organization_id,
        // The space it now runs on (an installation has one row per space, with no id of its own).
        target: { object: 'space', id: space.row.id, label: space.row.title },
        data: { object: presentSpaceInstallation(installation, installed.row.configuration, space.row.id, ctx.urls) },
      });
    }
    return installed.row;
  });
  return { installation, row, space };
}
