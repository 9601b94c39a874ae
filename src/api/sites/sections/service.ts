/**
 * The changes of a site's sections and section groups: add (a section publishes a space, a new one
 * when none is named), change, delete, move; a group's sections added and removed. Members who
 * change the site make them; each change runs on the structure inside one transaction.
 */
import type { Static } from 'typebox';
import { actingUser, type ServiceContext } from '../../../core/service.js';
import { requireSpaceForSite } from '../../../permissions/sites.js';
import { assertExpression } from '../../../sites/condition.js';
import {
  addSection,
  addSectionToGroup,
  createGroup,
  deleteGroup,
  deleteSection,
  groupIn,
  moveGroup,
  moveSection,
  removeSectionFromGroup,
  sectionIn,
  updateGroup,
  updateSection,
} from '../../../sites/sections.js';
import { createSpace } from '../../spaces/repo.js';
import { changeStructure, siteToChange } from '../shared/service.js';
import type {
  AddGroupBody,
  AddSectionBody,
  MoveGroupBody,
  MoveSectionBody,
  UpdateGroupBody,
  UpdateSectionBody,
} from './schemas.js';

/** Adds a section publishing `spaceId` (or a new space titled after the section); returns its id. */
export async function addSectionToSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: Static<typeof AddSectionBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId, 'write', 'add sections to it');
  const { spaceId, title, icon, siteSectionGroupId } = input;
  const existing =
    spaceId === null ? null : await requireSpaceForSite(ctx.db, actingUser(ctx).id, organizationId, spaceId);
  // A new space is made in the same transaction: an unknown group (400) leaves no space behind.
  const section = await changeStructure(ctx, { site, role }, async (trx, structure) => {
    const space = existing ?? (await createSpace(trx, organizationId, { title: (title ?? 'Untitled').slice(0, 50) }));
    return addSection(trx, structure, site, space, { title, icon, groupId: siteSectionGroupId });
  });
  return { site, role, sectionId: section.id };
}

export async function updateSiteSection(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  sectionId: string,
  patch: Static<typeof UpdateSectionBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  if (typeof patch.condition === 'string') assertExpression(patch.condition, 'body/condition');
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    updateSection(trx, structure, sectionIn(structure, sectionId), patch),
  );
  return { site, role };
}

export async function deleteSiteSection(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  sectionId: string,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    deleteSection(trx, structure, sectionIn(structure, sectionId)),
  );
}

export async function moveSiteSection(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  sectionId: string,
  input: Static<typeof MoveSectionBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    moveSection(trx, structure, sectionIn(structure, sectionId), input.position),
  );
  return { site, role };
}

/** Adds a section group (with `sections` of this site moved into it); returns its id. */
export async function addSectionGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: Static<typeof AddGroupBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  const group = await changeStructure(ctx, { site, role }, (trx, structure) =>
    createGroup(trx, structure, site.id, input),
  );
  return { site, role, groupId: group.id };
}

export async function updateSectionGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  patch: Static<typeof UpdateGroupBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) => updateGroup(trx, groupIn(structure, groupId), patch));
  return { site, role };
}

export async function deleteSectionGroup(ctx: ServiceContext, organizationId: string, siteId: string, groupId: string) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    deleteGroup(trx, structure, groupIn(structure, groupId)),
  );
}

export async function addSectionToSectionGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    addSectionToGroup(trx, structure, groupIn(structure, groupId), sectionId),
  );
  return { site, role };
}

export async function removeSectionFromSectionGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    removeSectionFromGroup(trx, structure, groupIn(structure, groupId), sectionId),
  );
}

export async function moveSectionGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  input: Static<typeof MoveGroupBody>,
) {
  const { site, role } = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, { site, role }, (trx, structure) =>
    moveGroup(trx, structure, groupIn(structure, groupId), input.position),
  );
  return { site, role };
}
