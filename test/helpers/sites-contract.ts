/**
 * Set-up shared by the contract tests of the sites areas (`test/contract/sites*.contract.test.ts`):
 * the operations of these areas and which file checks that it validated which, and the fixture
 * every test starts from. Each test file calls `useContractServer()` (`test/contract/server.ts`)
 * first; the fixture uses that server.
 */
import { expect } from 'vitest';
import { type GitBookAPI, official } from '../contract/official.js';
import { contractServer } from '../contract/server.js';
import { expectConforms } from '../contract/validate.js';

/**
 * The operations of these areas that sites.contract.test.ts validates and checks that it did: sites,
 * publishing, the published profile, customization, the permissions aggregate, redirects, share
 * links and insights.
 */
export const SITE_MAIN_OPERATIONS = [
  'listSites',
  'createSite',
  'getSiteById',
  'updateSiteById',
  'deleteSiteById',
  'publishSite',
  'unpublishSite',
  'getPublishedContentSite',
  'getSiteCustomizationById',
  'updateSiteCustomizationById',
  'getSiteSpaceCustomizationById',
  'overrideSiteSpaceCustomizationById',
  'deleteSiteSpaceCustomizationById',
  'listPermissionsAggregateInSite',
  'listSiteRedirects',
  'createSiteRedirect',
  'updateSiteRedirectById',
  'deleteSiteRedirectById',
  'getSiteRedirectBySource',
  'listSiteShareLinks',
  'createSiteShareLink',
  'updateSiteShareLinkById',
  'deleteSiteShareLinkById',
  'trackEventsInSiteById',
  'aggregateSiteEvents',
] as const;

/**
 * The operations of these areas that sites-structure.contract.test.ts validates and checks that it
 * did: site spaces, sections and section groups.
 */
export const STRUCTURE_OPERATIONS = [
  'listSiteSpaces',
  'addSpaceToSite',
  'updateSiteSpaceById',
  'deleteSiteSpaceById',
  'moveSiteSpace',
  'listSiteSections',
  'addSectionToSite',
  'updateSiteSectionById',
  'deleteSiteSectionById',
  'moveSiteSection',
  'listSiteSectionGroups',
  'addSectionGroupToSite',
  'updateSiteSectionGroupById',
  'deleteSiteSectionGroupById',
  'moveSiteSectionGroup',
] as const;

/**
 * Every operation of these areas: the two parts joined, so that each operation is in a part, checked
 * by that part's file (sites.contract.test.ts also checks that no operation is in both parts).
 */
export const SITE_OPERATIONS = [...SITE_MAIN_OPERATIONS, ...STRUCTURE_OPERATIONS] as const;

export interface Fixture {
  orgId: string;
  token: string;
  api: GitBookAPI;
  spaces: string[];
  siteId: string;
}

/** An organization with an admin client, three spaces and a site publishing the first two. */
export async function fixture(
  options: { visibility?: (typeof official.SiteVisibility)[keyof typeof official.SiteVisibility] } = {},
): Promise<Fixture> {
  const server = contractServer();
  const { id, admin } = await server.harness.org();
  const api = server.client(admin.token);
  const spaces: string[] = [];
  for (const title of ['Guide', 'Reference', 'Changelog']) {
    spaces.push((await admin.client.post(`/v1/orgs/${id}/spaces`, { title })).body.id);
  }
  const site = await expectConforms(
    'createSite',
    api.orgs.createSite(id, {
      title: 'Docs',
      type: official.SiteType.Premium,
      visibility: options.visibility ?? official.SiteVisibility.Public,
      spaces: spaces.slice(0, 2),
    }),
    201,
  );
  expect(site.headers.get('location')).toBe(`http://bindery.test/v1/orgs/${id}/sites/${site.data.id}`);
  return { orgId: id, token: admin.token, api, spaces, siteId: site.data.id };
}
