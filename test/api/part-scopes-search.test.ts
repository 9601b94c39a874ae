/**
 * The organization's search names the parts it shows (src/api/search/routes.ts): which spaces exist
 * and the spaces it lists. A rename of a space it does not list leaves its answer in memory; a
 * rename of one it lists, a space deleted, and a change of the index (a merge) show at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesAtCommit, WrittenTables } from '../../src/db/write-scope.js';
import { type Client, createHarness, type Harness } from '../helpers/app.js';
import { cacheReads } from '../helpers/cache-hits.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

// A database of this file's own: other files' writes to a shared PostgreSQL database reach this
// app as other processes' changes, and the hits expected here would come and go.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('part-scopes-search');
  h = await createHarness({ ownDatabase: database.url });
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});
const { get, hits, keep } = cacheReads(() => h);

/** Merges a change request writing `markdown` as a new page of the space at `base`. */
async function mergePage(client: Client, base: string, title: string, markdown: string) {
  const cr = (await client.post(`${base}/change-requests`, { subject: title })).body;
  const saved = await client.post(`${base}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'insert_page', title, document: { markdown } }],
  });
  expect(saved.status).toBe(200);
  expect((await client.post(`${base}/change-requests/${cr.id}/merge`, {})).status).toBeLessThan(300);
}

async function space(client: Client, orgId: string, title: string, markdown: string) {
  const created = (await client.post(`/v1/orgs/${orgId}/spaces`, { title })).body;
  const base = `/v1/spaces/${created.id}`;
  await mergePage(client, base, 'Intro', markdown);
  return { id: created.id as string, base };
}

const titlesOf = (body: { items: { id: string; title: string }[] }) =>
  Object.fromEntries(body.items.map((s) => [s.id, s.title]));

describe('the organization’s search', () => {
  it('stays in memory through a rename of a space it does not list, and shows every change it lists', async () => {
    const org = await h.org({ title: 'Search parts' });
    const c = org.admin.client;
    const reader = await h.member(org.id, 'read', { name: 'Reader' });
    const zebra = await space(c, org.id, 'Zebras', 'Zebra stripes run across the savanna');
    const other = await space(c, org.id, 'Others', 'Nothing striped lives here');
    const search = `/v1/orgs/${org.id}/search?query=zebra`;
    await keep(c, [search]);
    await keep(reader.client, [search]);
    expect(titlesOf((await get(c, search)).res.body)).toEqual({ [zebra.id]: 'Zebras' });

    // A rename of a space the answer does not list: kept, for every caller.
    expect((await c.patch(other.base, { title: 'Others renamed' })).status).toBe(200);
    expect(await hits(c, [search])).toEqual({ [search]: true });
    expect(await hits(reader.client, [search])).toEqual({ [search]: true });

    // A rename of the space it lists: computed anew, with the new title.
    expect((await c.patch(zebra.base, { title: 'Zebras renamed' })).status).toBe(200);
    const renamed = await get(reader.client, search);
    expect(renamed.hit).toBe(false);
    expect(titlesOf(renamed.res.body)).toEqual({ [zebra.id]: 'Zebras renamed' });

    // The other space's index gains a match (a merge): it shows at once.
    await keep(reader.client, [search]);
    await mergePage(c, other.base, 'Visitors', 'A zebra wandered in');
    const merged = await get(reader.client, search);
    expect(merged.hit).toBe(false);
    expect(titlesOf(merged.res.body)).toEqual({ [zebra.id]: 'Zebras renamed', [other.id]: 'Others renamed' });

    // A space deleted: it goes from the answer at once.
    await keep(reader.client, [search]);
    expect((await c.delete(zebra.base)).status).toBeLessThan(300);
    const deleted = await get(reader.client, search);
    expect(deleted.hit).toBe(false);
    expect(titlesOf(deleted.res.body)).toEqual({ [other.id]: 'Others renamed' });

    // An answer listing no space stays through a rename too.
    const none = `/v1/orgs/${org.id}/search?query=giraffe`;
    await keep(reader.client, [none]);
    expect((await c.patch(other.base, { title: 'Others again' })).status).toBe(200);
    expect(await hits(reader.client, [none])).toEqual({ [none]: true });
  });

  it('counts a write of the search index as a write of the organization’s base, whatever part it declares', async () => {
    const { inWriteScope, declareSpaceWrite } = await import('../../src/db/write-scope.js');
    for (const table of ['search_passages', 'search_cjk_pairs', 'search_index_state']) {
      const scopes = inWriteScope(() => {
        declareSpaceWrite('o1', 's1', { sameExistence: true });
        const written = new WrittenTables();
        written.note(`insert into "${table}" ("space_id") values (?)`, 1);
        return scopesAtCommit(written);
      });
      expect(scopes, table).toContain('orgbase:o1');
    }
  });
});
