/**
 * A read never writes, even the first one: what a resource needs to be read is made by the write
 * that makes the resource (a space's first, empty revision and its search index when the space is
 * created, a site's visitor-auth settings when the site is) or at start (server-wide keys).
 * `reads-quiet.test.ts` sweeps every GET over a world that has been edited; this file reads what
 * has never been.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverOf } from '../../src/db/database.js';
import { prepareServerData } from '../../src/services/startup.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

// A database of this file's own: on PostgreSQL, the files running beside this one share the test
// database, and this harness's job worker would claim their jobs, whose writes it counts.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('first-reads');
  h = await createHarness({ ownDatabase: database.url });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await database?.drop();
});

describe('first reads', () => {
  it("reads a new space's content, pages and live revision without writing", async () => {
    const world = await h.space('Never edited');
    const writes = driverOf(h.db)?.writes;
    if (!writes) throw new Error('no write counter under the harness database');
    const space = await world.admin.client.get(world.base);
    expect(space.status).toBe(200);

    const before = writes.committed;
    const content = await world.admin.client.get(`${world.base}/content`);
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({ object: 'revision', pages: [], files: [] });
    const revision = await world.admin.client.get(`${world.base}/revisions/${space.body.revision}`);
    expect(revision.status).toBe(200);
    expect(revision.body.id).toBe(space.body.revision);
    const pages = await world.admin.client.get(`${world.base}/content/pages`);
    expect(pages.status).toBe(200);
    expect(writes.committed).toBe(before);
  });

  it("reads a new site's visitor-auth settings and preview without writing", async () => {
    const world = await h.space('Site content');
    const writes = driverOf(h.db)?.writes;
    if (!writes) throw new Error('no write counter under the harness database');
    const client = world.admin.client;
    const site = await client.post(`/v1/orgs/${world.orgId}/sites`, { title: 'Docs', spaces: [world.spaceId] });
    expect(site.status).toBe(201);
    const path = `/v1/orgs/${world.orgId}/sites/${site.body.id}`;

    const before = writes.committed;
    const auth = await client.get(`${path}/publishing/auth`);
    expect(auth.status).toBe(200);
    expect(auth.body.privateKey).toMatch(/^\S{20,}$/);
    const preview = await client.get(`${path}/publishing/preview`);
    expect(preview.status).toBe(200);
    expect(writes.committed).toBe(before);
  });

  it('gives a site made without settings (an older database) its settings at start', async () => {
    const world = await h.space('Older site');
    const client = world.admin.client;
    const site = await client.post(`/v1/orgs/${world.orgId}/sites`, { title: 'Old' });
    await h.db.deleteFrom('site_publishing_auth').where('site_id', '=', site.body.id).execute();

    await prepareServerData(h.db, h.app.config, h.app.log);
    const auth = await client.get(`/v1/orgs/${world.orgId}/sites/${site.body.id}/publishing/auth`);
    expect(auth.status).toBe(200);
    expect(auth.body.privateKey).toMatch(/^\S{20,}$/);
  });
});
