/**
 * The changes of a site's site spaces: add a space (a new one when none is named), change its path
 * or condition, remove it, move it among its siblings. Members who change the site make them.
 */
import type { Static } from 'typebox';
import { actingUser, type ServiceContext } from '../../../core/service.js';
import { requireSpaceForSite } from '../../../permissions/sites.js';
import { assertExpression } from '../../../sites/condition.js';
import { addSection } from '../../../sites/sections.js';
import {
  deleteSiteSpaces,
  insertSiteSpace,
  moveSiteSpace as moveSiteSpaceRow,
  siteSpaceIn,
  targetSection,
  updateSiteSpace as updateSiteSpaceRow,
} from '../../../sites/site-spaces.js';
import { createSpace } from '../../spaces/repo.js';
import { duplicateSpace } from '../../spaces/service.js';
import { changeStructure, siteToChange } from '../shared/service.js';
import type { AddSiteSpaceBody, MoveSiteSpaceBody, UpdateSiteSpaceBody } from './schemas.js';

/**
 * Publishes a space on the site (in `sectionId`, or the site's root), or a new space titled after
 * the site when `spaceId` is null. Returns the site space's id.
 */
export async function addSpaceToSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: Static<typeof AddSiteSpaceBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId, 'write', 'add spaces to it');
  const space =
    input.spaceId === null
      ? null
      : await requireSpaceForSite(ctx.db, actingUser(ctx).id, organizationId, input.spaceId);
  // A new space is made in the same transaction: an unknown section (400) leaves no space behind.
  const row = await changeStructure(ctx, { site, role }, async (trx, structure) => {
    const section = targetSection(structure, input.sectionId);
    const target = space ?? (await createSpace(trx, organizationId, { title: site.title.slice(0, 50) }));
    return insertSiteSpace(trx, site.id, target, section);
  });
  return { site, role, siteSpaceId: row.id };
}

/** Changes the path or the condition (checked: a bad expression is a 400) of a site space. */
export async function updateSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  patch: Static<typeof UpdateSiteSpaceBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  if (typeof patch.condition === 'string') assertExpression(patch.condition, 'body/condition');
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    updateSiteSpaceRow(trx, structure, siteSpaceIn(structure, siteSpaceId), patch),
  );
  return { site, role };
}

export async function deleteSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    deleteSiteSpaces(trx, structure, [siteSpaceIn(structure, siteSpaceId)]),
  );
}

export async function moveSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  input: Static<typeof MoveSiteSpaceBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    moveSiteSpaceRow(trx, structure, siteSpaceIn(structure, siteSpaceId), input.position),
  );
  return { site, role };
}

/**
 * Duplicates the space of a site space and places the copy on the site (`duplicateSiteSpace`): in a
 * new section after it when the site space is alone in its section, else beside it in the same
 * container. The copy is made by `duplicateSpace` (its event) in the structure change's transaction.
 * Bindery has no draft site spaces: `draft` is accepted and changes nothing.
 */
export async function duplicateSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId, 'write', 'duplicate its spaces');
  const row = await changeStructure(ctx, { site, role }, async (trx, structure) => {
    const source = siteSpaceIn(structure, siteSpaceId);
    await requireSpaceForSite(
      trx as unknown as ServiceContext['db'],
      actingUser(ctx).id,
      organizationId,
      source.space_id,
    );
    const copy = await duplicateSpace({ ...ctx, db: trx as unknown as ServiceContext['db'] }, source.space_id);
    const section = source.section_id ? structure.sectionById.get(source.section_id) : undefined;
    if (section && structure.siteSpacesIn(section.id).length === 1) {
      const added = await addSection(trx as unknown as ServiceContext['db'], structure, site, copy, {
        ...(section.group_id ? { groupId: section.group_id } : {}),
      });
      return trx.selectFrom('site_spaces').selectAll().where('section_id', '=', added.id).executeTakeFirstOrThrow();
    }
    return insertSiteSpace(trx, site.id, copy, source.section_id);
  });
  return { site, role, siteSpaceId: row.id };
}
