/**
 * Contract test of the sites areas (sites, publishing, published profile, customization, redirects,
 * share links, the site permissions aggregate, site insights): every operation is driven through the
 * official `@gitbook/api` client against a listening server, and every body is validated against the
 * official OpenAPI document. Site spaces, sections and section groups are in
 * sites-structure.contract.test.ts; the shared set-up is in test/helpers/sites-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { fixture, SITE_MAIN_OPERATIONS, SITE_OPERATIONS, STRUCTURE_OPERATIONS } from '../helpers/sites-contract.js';
import { official } from './official.js';
import { contractServer, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

describe('sites', () => {
  it('createSite, getSiteById, listSites with filters, updateSiteById, deleteSiteById', async () => {
    const f = await fixture();
    const got = await expectConforms('getSiteById', f.api.orgs.getSiteById(f.orgId, f.siteId), 200);
    expect(got.data).toMatchObject({ title: 'Docs', type: 'premium', siteSpaces: 2 });
    await expectConforms('createSite', f.api.orgs.createSite(f.orgId, {}), 201);
    const all = await expectConforms('listSites', f.api.orgs.listSites(f.orgId, { limit: 1 }), 200);
    expect(all.data.count).toBe(2);
    expect(all.data.next?.page).toBeTruthy();
    const filtered = await expectConforms(
      'listSites',
      f.api.orgs.listSites(f.orgId, {
        space: f.spaces[0],
        title: 'doc',
        published: false,
        type: [official.SiteType.Premium, official.SiteType.Ultimate],
      }),
      200,
    );
    expect(filtered.data.items.map((s) => s.id)).toEqual([f.siteId]);
    // A proxy is on a host of the site's own organization, which an operator gives it.
    const host = `docs-${f.orgId.toLowerCase()}.example.com`;
    const { db } = contractServer().harness;
    await db.updateTable('organizations').set({ custom_hostname: host }).where('id', '=', f.orgId).execute();
    const updated = await expectConforms(
      'updateSiteById',
      f.api.orgs.updateSiteById(f.orgId, f.siteId, {
        title: 'Handbook',
        visibility: official.SiteVisibility.Unlisted,
        basename: 'handbook',
        adaptiveContent: { enabled: true },
        proxy: `${host}/docs`,
      }),
      200,
    );
    expect(updated.data).toMatchObject({
      title: 'Handbook',
      basename: 'handbook',
      proxy: { origin: `${host}/docs` },
    });
    await expectConforms('updateSiteById', f.api.orgs.updateSiteById(f.orgId, f.siteId, { proxy: null }), 200);
    await expectApiError('updateSiteById', f.api.orgs.updateSiteById(f.orgId, f.siteId, { title: 'x' }), 400);
    await expectConforms('deleteSiteById', f.api.orgs.deleteSiteById(f.orgId, f.siteId), 204);
    await expectApiError('getSiteById', f.api.orgs.getSiteById(f.orgId, f.siteId), 404);
  });

  it('publishSite, unpublishSite, getPublishedContentSite (site spaces, then sections)', async () => {
    const f = await fixture({ visibility: official.SiteVisibility.ShareLink });
    const published = await expectConforms('publishSite', f.api.orgs.publishSite(f.orgId, f.siteId), 200);
    expect((published.data as { published: boolean }).published).toBe(true);
    const link = await expectConforms(
      'createSiteShareLink',
      f.api.orgs.createSiteShareLink(f.orgId, f.siteId, { name: 'Partners' }),
      201,
    );
    const shareKey = new URL(link.data.urls.published as string).searchParams.get('share') as string;
    const flat = await expectConforms(
      'getPublishedContentSite',
      f.api.orgs.getPublishedContentSite(f.orgId, f.siteId, { shareKey }),
      200,
    );
    expect(flat.data.structure.type).toBe('siteSpaces');
    expect(flat.data.site.urls.published).toContain(`share=${shareKey}`);
    await f.api.orgs.addSectionToSite(f.orgId, f.siteId, { spaceId: f.spaces[2] as string, title: 'Changelog' });
    await f.api.orgs.addSectionGroupToSite(f.orgId, f.siteId, { title: 'More' });
    const sections = await expectConforms(
      'getPublishedContentSite',
      f.api.orgs.getPublishedContentSite(f.orgId, f.siteId),
      200,
    );
    expect(sections.data.structure.type).toBe('sections');
    expect(sections.data.structure.structure).toHaveLength(3);
    await expectApiError('getPublishedContentSite', f.api.orgs.getPublishedContentSite(f.orgId, 'nope'), 404);
    const unpublished = await expectConforms('unpublishSite', f.api.orgs.unpublishSite(f.orgId, f.siteId), 200);
    expect(unpublished.data.published).toBe(false);
  });

  it('site and site-space customization', async () => {
    const f = await fixture();
    await expectConforms('getSiteCustomizationById', f.api.orgs.getSiteCustomizationById(f.orgId, f.siteId), 200);
    const put = await expectConforms(
      'updateSiteCustomizationById',
      f.api.orgs.updateSiteCustomizationById(f.orgId, f.siteId, {
        title: 'Handbook',
        styling: {
          theme: official.CustomizationTheme.Bold,
          primaryColor: { light: '#ff0000', dark: '#00ff00' },
        },
        announcement: {
          enabled: true,
          message: 'Hello',
          style: 'info',
          link: { title: 'More', to: { kind: 'url', url: 'https://acme.test' } },
        },
        header: { links: [{ title: 'Home', to: { kind: 'url', url: 'https://acme.test' }, links: [] }] },
        footer: { groups: [{ title: 'About', links: [] }], copyright: '© Acme' },
        privacyPolicy: { url: 'https://acme.test/privacy' },
      } as never),
      200,
    );
    expect(put.data.title).toBe('Handbook');
    const siteSpaces = await f.api.orgs.listSiteSpaces(f.orgId, f.siteId);
    const siteSpaceId = siteSpaces.data.items[0]?.id as string;
    await expectConforms(
      'getSiteSpaceCustomizationById',
      f.api.orgs.getSiteSpaceCustomizationById(f.orgId, f.siteId, siteSpaceId),
      200,
    );
    const override = await expectConforms(
      'overrideSiteSpaceCustomizationById',
      f.api.orgs.overrideSiteSpaceCustomizationById(f.orgId, f.siteId, siteSpaceId, {
        title: 'Variant',
        styling: { corners: official.CustomizationCorners.Straight, theme: null },
        feedback: { enabled: true },
      }),
      200,
    );
    expect(override.data).toMatchObject({ title: 'Variant', styling: { theme: 'bold', corners: 'straight' } });
    await expectConforms(
      'deleteSiteSpaceCustomizationById',
      f.api.orgs.deleteSiteSpaceCustomizationById(f.orgId, f.siteId, siteSpaceId),
      204,
    );
    await expectApiError(
      'updateSiteCustomizationById',
      f.api.orgs.updateSiteCustomizationById(f.orgId, f.siteId, { styling: { theme: 'neon' } } as never),
      400,
    );
  });

  it('listPermissionsAggregateInSite', async () => {
    const f = await fixture();
    const reader = await contractServer().harness.member(f.orgId, 'read');
    const res = await expectConforms(
      'listPermissionsAggregateInSite',
      contractServer().client(reader.token).orgs.listPermissionsAggregateInSite(f.orgId, f.siteId),
      200,
    );
    expect(res.data.count).toBe(2);
    expect(res.data.items[0]?.origin).toEqual({ type: 'space', space: f.spaces[0] });
    const outsider = await contractServer().harness.user();
    await expectApiError(
      'listPermissionsAggregateInSite',
      contractServer().client(outsider.token).orgs.listPermissionsAggregateInSite(f.orgId, f.siteId),
      404,
    );
  });
});

describe('redirects and share links', () => {
  it('redirects: create, list, update, resolve, delete', async () => {
    const f = await fixture();
    const siteSpaces = await f.api.orgs.listSiteSpaces(f.orgId, f.siteId);
    const target = siteSpaces.data.items[1]?.id as string;
    const created = await expectConforms(
      'createSiteRedirect',
      f.api.orgs.createSiteRedirect(f.orgId, f.siteId, {
        source: '/old/reference',
        destination: { kind: 'site-space', siteSpaceId: target },
      }),
      201,
    );
    await expectConforms('listSiteRedirects', f.api.orgs.listSiteRedirects(f.orgId, f.siteId), 200);
    await expectConforms(
      'updateSiteRedirectById',
      f.api.orgs.updateSiteRedirectById(f.orgId, f.siteId, created.data.id, { source: '/older/reference' }),
      200,
    );
    const resolved = await expectConforms(
      'getSiteRedirectBySource',
      f.api.orgs.getSiteRedirectBySource(f.orgId, f.siteId, { source: '/older/reference' }),
      200,
    );
    expect(resolved.data.target).toMatch(/\/docs\/reference$/);
    await expectApiError(
      'getSiteRedirectBySource',
      f.api.orgs.getSiteRedirectBySource(f.orgId, f.siteId, { source: '/unknown' }),
      404,
    );
    await expectApiError(
      'createSiteRedirect',
      f.api.orgs.createSiteRedirect(f.orgId, f.siteId, {
        source: '/older/reference',
        destination: { kind: 'site-space', siteSpaceId: target },
      }),
      409,
    );
    await expectConforms(
      'deleteSiteRedirectById',
      f.api.orgs.deleteSiteRedirectById(f.orgId, f.siteId, created.data.id),
      204,
    );
  });

  it('share links: create, list, update, delete; admins only', async () => {
    const f = await fixture({ visibility: official.SiteVisibility.ShareLink });
    const link = await expectConforms(
      'createSiteShareLink',
      f.api.orgs.createSiteShareLink(f.orgId, f.siteId, { name: 'Partners' }),
      201,
    );
    const list = await expectConforms('listSiteShareLinks', f.api.orgs.listSiteShareLinks(f.orgId, f.siteId), 200);
    expect(list.data.items).toHaveLength(1);
    const off = await expectConforms(
      'updateSiteShareLinkById',
      f.api.orgs.updateSiteShareLinkById(f.orgId, f.siteId, link.data.id, { active: false }),
      200,
    );
    expect(off.data.active).toBe(false);
    const reader = await contractServer().harness.member(f.orgId, 'read');
    await expectApiError(
      'listSiteShareLinks',
      contractServer().client(reader.token).orgs.listSiteShareLinks(f.orgId, f.siteId),
      403,
    );
    await expectConforms(
      'deleteSiteShareLinkById',
      f.api.orgs.deleteSiteShareLinkById(f.orgId, f.siteId, link.data.id),
      204,
    );
  });
});

describe('site insights', () => {
  it('trackEventsInSiteById, aggregateSiteEvents', async () => {
    const f = await fixture();
    await f.api.orgs.publishSite(f.orgId, f.siteId);
    const location = {
      url: 'https://docs.example.test/guide',
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space: f.spaces[0] as string,
      revision: null,
      page: 'p1',
    };
    const session = {
      sessionId: 's1',
      visitorId: 'v1',
      cookies: {},
      userAgent: 'test',
      language: null,
      referrer: null,
    };
    await expectConforms(
      'trackEventsInSiteById',
      f.api.orgs.trackEventsInSiteById(f.orgId, f.siteId, {
        events: [
          { type: 'page_view', session, location },
          { type: 'page_post_feedback', session, location, feedback: { rating: official.PageFeedbackRating.Good } },
        ],
      }),
      204,
    );
    const res = await expectConforms(
      'aggregateSiteEvents',
      f.api.orgs.aggregateSiteEvents(f.orgId, f.siteId, {
        range: official.SiteInsightsQueryRangePreset.Last24Hours,
        select: [
          { column: 'page' },
          { column: 'pageFeedbackRating' },
          { column: 'datetime', interval: 'hour' },
          { column: 'sessionsCount' },
        ],
        groupBy: [{ column: 'page' }, { column: 'datetime', interval: 'hour' }],
      }),
      200,
    );
    expect(res.data.columns[1]?.values).toEqual([{ good: 1, ok: 0, bad: 0 }]);
    await expectApiError(
      'aggregateSiteEvents',
      f.api.orgs.aggregateSiteEvents(f.orgId, f.siteId, {
        range: official.SiteInsightsQueryRangePreset.Last7Days,
        groupBy: [{ column: 'visitorOS' }],
      }),
      400,
    );
    await expectApiError(
      'trackEventsInSiteById',
      f.api.orgs.trackEventsInSiteById(f.orgId, 'nope', { events: [{ type: 'page_view', session, location }] }),
      404,
    );
  });
});

/**
 * The operations of these areas are divided between two files, each checking at its end that it
 * validated its part: this file SITE_MAIN_OPERATIONS,
 * sites-structure.contract.test.ts STRUCTURE_OPERATIONS. Together they are every operation of
 * these areas by construction: test/helpers/sites-contract.ts defines SITE_OPERATIONS (the list
 * this file checked before it was split) as the two parts joined. The first assertion below checks
 * that the parts together are exactly the distinct operations of SITE_OPERATIONS, none in both parts.
 */
describe('coverage', () => {
  it('validated every operation of these areas', () => {
    expect([...SITE_MAIN_OPERATIONS, ...STRUCTURE_OPERATIONS].sort()).toEqual([...new Set(SITE_OPERATIONS)].sort());
    expectOperationsCovered(SITE_MAIN_OPERATIONS);
  });
});
