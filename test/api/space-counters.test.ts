/**
 * A space's change-request counters, as the official document defines them: `changeRequests` is
 * the total (draft, open, merged, archived), `changeRequestsOpen` and `changeRequestsDraft` the
 * open and draft ones; the same on every read and list that returns Space objects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('space counters', () => {
  it('count the change requests of every status on every read and list', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const collection = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'C' })).body;
    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Busy', parent: collection.id })).body;
    const quiet = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Quiet' })).body;
    const crs = [];
    for (let i = 1; i <= 6; i++) {
      const cr = await c.post(`/v1/spaces/${space.id}/change-requests`, { subject: `CR ${i}` });
      expect(cr.status).toBe(201);
      crs.push(cr.body.id as string);
    }
    // 6 change requests: 2 open, 2 draft, 1 merged, 1 archived.
    expect((await c.patch(`/v1/spaces/${space.id}/change-requests/${crs[2]}`, { status: 'draft' })).status).toBe(200);
    expect((await c.patch(`/v1/spaces/${space.id}/change-requests/${crs[3]}`, { status: 'draft' })).status).toBe(200);
    expect((await c.patch(`/v1/spaces/${space.id}/change-requests/${crs[4]}`, { status: 'archived' })).status).toBe(
      200,
    );
    expect((await c.post(`/v1/spaces/${space.id}/change-requests/${crs[5]}/merge`)).status).toBe(200);
    const expected = { changeRequests: 6, changeRequestsOpen: 2, changeRequestsDraft: 2 };
    const none = { changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

    expect((await c.get(`/v1/spaces/${space.id}`)).body).toMatchObject(expected);
    expect((await c.get(`/v1/spaces/${quiet.id}`)).body).toMatchObject(none);
    const list = (await c.get(`/v1/orgs/${org.id}/spaces`)).body.items as Array<{ id: string }>;
    expect(list.find((s) => s.id === space.id)).toMatchObject(expected);
    expect(list.find((s) => s.id === quiet.id)).toMatchObject(none);
    const inCollection = (await c.get(`/v1/collections/${collection.id}/spaces`)).body.items;
    expect(inCollection).toEqual([expect.objectContaining({ id: space.id, ...expected })]);
    const memberSpaces = (await c.get(`/v1/orgs/${org.id}/members/${org.admin.user.id}/spaces`)).body.items as Array<{
      space: { id: string };
    }>;
    expect(memberSpaces.find((e) => e.space.id === space.id)?.space).toMatchObject(expected);
    const patched = await c.patch(`/v1/spaces/${space.id}`, { title: 'Renamed' });
    expect(patched.body).toMatchObject(expected);

    const site = (await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Site', spaces: [space.id] })).body;
    const siteSpaces = (await c.get(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces`)).body.items;
    expect(siteSpaces[0].space).toMatchObject({ id: space.id, ...expected });
  });
});
