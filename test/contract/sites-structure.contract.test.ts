/**
 * Contract test of the structure of sites (site spaces, sections and section groups): every
 * operation is driven through the official `@gitbook/api` client against a listening server, and
 * every body is validated against the official OpenAPI document. The two section-group operations
 * the official document does not have are called with fetch and their bodies validated against its
 * `SiteSectionGroup` schema. The shared set-up is in test/helpers/sites-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { fixture, STRUCTURE_OPERATIONS } from '../helpers/sites-contract.js';
import { contractServer, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered, validateAgainst } from './validate.js';

useContractServer();

describe('site spaces', () => {
  it('listSiteSpaces, addSpaceToSite, updateSiteSpaceById, moveSiteSpace, deleteSiteSpaceById', async () => {
    const f = await fixture();
    const added = await expectConforms(
      'addSpaceToSite',
      f.api.orgs.addSpaceToSite(f.orgId, f.siteId, { spaceId: f.spaces[2] as string }),
      201,
    );
    expect(added.data.default).toBe(false);
    const list = await expectConforms('listSiteSpaces', f.api.orgs.listSiteSpaces(f.orgId, f.siteId), 200);
    expect(list.data.count).toBe(3);
    const defaults = await expectConforms(
      'listSiteSpaces',
      f.api.orgs.listSiteSpaces(f.orgId, f.siteId, { default: true }),
      200,
    );
    expect(defaults.data.items).toHaveLength(1);
    const updated = await expectConforms(
      'updateSiteSpaceById',
      f.api.orgs.updateSiteSpaceById(f.orgId, f.siteId, added.data.id, {
        path: 'changes',
        condition: 'visitor.claims.beta === true',
      }),
      200,
    );
    expect(updated.data).toMatchObject({ path: 'changes', condition: 'visitor.claims.beta === true' });
    await expectApiError(
      'updateSiteSpaceById',
      f.api.orgs.updateSiteSpaceById(f.orgId, f.siteId, added.data.id, { condition: 'a &&' }),
      400,
    );
    const first = list.data.items[0]?.id as string;
    const moved = await expectConforms(
      'moveSiteSpace',
      f.api.orgs.moveSiteSpace(f.orgId, f.siteId, added.data.id, {
        position: { before: { type: 'site-space', siteSpace: first } },
      }),
      200,
    );
    expect(moved.data.id).toBe(added.data.id);
    await expectApiError('moveSiteSpace', f.api.orgs.moveSiteSpace(f.orgId, f.siteId, 'nope', {}), 404);
    await expectConforms('deleteSiteSpaceById', f.api.orgs.deleteSiteSpaceById(f.orgId, f.siteId, first), 204);
    const after = await f.api.orgs.listSiteSpaces(f.orgId, f.siteId, { default: true });
    expect(after.data.items).toHaveLength(1);
  });
});

describe('site sections and section groups', () => {
  it('sections: add, list, update, move, delete', async () => {
    const f = await fixture();
    const added = await expectConforms(
      'addSectionToSite',
      f.api.orgs.addSectionToSite(f.orgId, f.siteId, {
        spaceId: f.spaces[2] as string,
        title: 'Changelog',
        icon: 'clock',
      }),
      201,
    );
    const list = await expectConforms('listSiteSections', f.api.orgs.listSiteSections(f.orgId, f.siteId), 200);
    expect(list.data.items.map((s) => s.title)).toEqual(['Docs', 'Changelog']);
    const updated = await expectConforms(
      'updateSiteSectionById',
      f.api.orgs.updateSiteSectionById(f.orgId, f.siteId, added.data.id, {
        title: 'Releases',
        path: 'releases',
        description: 'What changed',
        condition: 'true',
      }),
      200,
    );
    expect(updated.data.path).toBe('releases');
    const first = list.data.items[0]?.id as string;
    await expectConforms(
      'moveSiteSection',
      f.api.orgs.moveSiteSection(f.orgId, f.siteId, added.data.id, {
        position: { before: { type: 'site-section', siteSection: first } },
      }),
      200,
    );
    await expectApiError(
      'moveSiteSection',
      f.api.orgs.moveSiteSection(f.orgId, f.siteId, added.data.id, {
        position: { before: { type: 'site-section', siteSection: 'nope' } },
      }),
      400,
    );
    await expectConforms(
      'deleteSiteSectionById',
      f.api.orgs.deleteSiteSectionById(f.orgId, f.siteId, added.data.id),
      204,
    );
  });

  it('groups: add, list, update, move, add and remove a section (fetch), delete', async () => {
    const f = await fixture();
    const section = await f.api.orgs.addSectionToSite(f.orgId, f.siteId, {
      spaceId: f.spaces[2] as string,
      title: 'Changelog',
    });
    const group = await expectConforms(
      'addSectionGroupToSite',
      f.api.orgs.addSectionGroupToSite(f.orgId, f.siteId, { title: 'More', icon: 'book', sections: [section.data.id] }),
      201,
    );
    expect(group.data.sections.map((s) => s.id)).toEqual([section.data.id]);
    const list = await expectConforms(
      'listSiteSectionGroups',
      f.api.orgs.listSiteSectionGroups(f.orgId, f.siteId),
      200,
    );
    expect(list.data.count).toBe(1);
    await expectConforms(
      'updateSiteSectionGroupById',
      f.api.orgs.updateSiteSectionGroupById(f.orgId, f.siteId, group.data.id, { title: 'Extras', icon: null }),
      200,
    );
    const sections = await f.api.orgs.listSiteSections(f.orgId, f.siteId);
    await expectConforms(
      'moveSiteSectionGroup',
      f.api.orgs.moveSiteSectionGroup(f.orgId, f.siteId, group.data.id, {
        position: { before: { type: 'site-section', id: sections.data.items[0]?.id as string } },
      }),
      200,
    );

    // Not in the official document: fetch, and validate against its SiteSectionGroup schema.
    const base = `${contractServer().endpoint}/v1/orgs/${f.orgId}/sites/${f.siteId}/section-groups/${group.data.id}/sections`;
    const headers = { authorization: `Bearer ${f.token}`, 'content-type': 'application/json' };
    const removed = await fetch(`${base}/${section.data.id}`, { method: 'DELETE', headers });
    expect(removed.status).toBe(204);
    const re = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ sectionId: section.data.id }) });
    expect(re.status).toBe(200);
    const body = await re.json();
    expect(validateAgainst('#/components/schemas/SiteSectionGroup', body)).toEqual([]);
    expect(body.sections.map((s: { id: string }) => s.id)).toEqual([section.data.id]);
    const missing = await fetch(`${base}/nope`, { method: 'DELETE', headers });
    expect(missing.status).toBe(404);
    expect(validateAgainst('#/components/schemas/Error', await missing.json())).toEqual([]);

    await expectConforms(
      'deleteSiteSectionGroupById',
      f.api.orgs.deleteSiteSectionGroupById(f.orgId, f.siteId, group.data.id),
      204,
    );
  });
});

/**
 * This file's part of the operations of these areas; sites.contract.test.ts checks the rest, and that
 * the two parts together are every operation of SITE_OPERATIONS.
 */
describe('coverage', () => {
  it('validated every operation of its part of these areas (STRUCTURE_OPERATIONS)', () => {
    expectOperationsCovered(STRUCTURE_OPERATIONS);
  });
});
