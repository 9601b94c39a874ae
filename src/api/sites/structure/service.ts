/**
 * The changes of a site's external links and the generic structure sort. Members who change the site
 * make them; each runs on the structure inside one transaction and records `site.structure.updated`
 * (through `changeStructure`), as the other structure changes do.
 */
import type { ServiceContext } from '../../../core/service.js';
import {
  addExternalLink,
  deleteExternalLink,
  type ExternalLinkFields,
  linkIn,
  updateExternalLink,
} from '../../../sites/external-links.js';
import { type StructurePointer, sortStructureItem } from '../../../sites/sort.js';
import { loadStructure } from '../../../sites/structure.js';
import { changeStructure, siteToChange } from '../shared/service.js';

export async function addExternalLinkToSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: ExternalLinkFields & { title: string; url: string },
) {
  const authorized = await siteToChange(ctx, organizationId, siteId, 'write', 'add external links to it');
  const link = await changeStructure(ctx, authorized, (trx, structure) =>
    addExternalLink(trx, structure, authorized.site.id, input),
  );
  return { ...authorized, linkId: link.id };
}

export async function updateSiteExternalLink(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  linkId: string,
  patch: ExternalLinkFields,
) {
  const authorized = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, authorized, (trx, structure) =>
    updateExternalLink(trx, structure, linkIn(structure, linkId), patch),
  );
  return authorized;
}

/** Deletes the link; false when the site has no such link (the official 204, nothing changed). */
export async function deleteSiteExternalLink(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  linkId: string,
): Promise<boolean> {
  const authorized = await siteToChange(ctx, organizationId, siteId);
  if (!(await loadStructure(ctx.db, authorized.site.id)).linkById.has(linkId)) return false;
  // Deleted meanwhile: the change finds nothing, and the structure event still tells what it is now.
  await changeStructure(ctx, authorized, async (trx, structure) => {
    const link = structure.linkById.get(linkId);
    if (link) await deleteExternalLink(trx, link);
  });
  return true;
}

export async function sortSiteStructure(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: { item: StructurePointer; position: { before?: StructurePointer; after?: StructurePointer } },
) {
  const authorized = await siteToChange(ctx, organizationId, siteId);
  await changeStructure(ctx, authorized, (trx, structure) =>
    sortStructureItem(trx, structure, input.item, input.position),
  );
  return authorized;
}
