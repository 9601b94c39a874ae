/**
 * Answers that read a space's row but show none of its own fields — its live content, its change
 * requests and their content — name only that the space exists (`spaceUnshownPart`,
 * src/db/scope-parts.ts): a rename leaves them in memory, while a move of the live revision (a
 * merge), a change request's own writes and the space's deletion show at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createHarness, type Harness } from '../helpers/app.js';
import { cacheReads } from '../helpers/cache-hits.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

// A database of this file's own: other files' writes to a shared PostgreSQL database reach this
// app as other processes' changes, and the hits expected here would come and go.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('part-scopes-content');
  h = await createHarness({ ownDatabase: database.url });
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});
const { get, hits, keep } = cacheReads(() => h);

const allHits = (urls: string[]) => Object.fromEntries(urls.map((u) => [u, true]));

/** Opens a change request on the space at `base` writing a page `title`; merges it when `merge`. */
async function draft(client: Client, base: string, title: string, markdown: string, merge: boolean) {
  const cr = (await client.post(`${base}/change-requests`, { subject: title })).body;
  const crBase = `${base}/change-requests/${cr.id}`;
  const saved = await client.post(`${crBase}/content`, {
    changes: [{ operation: 'insert_page', title, document: { markdown } }],
  });
  expect(saved.status).toBe(200);
  if (merge) expect((await client.post(`${crBase}/merge`, {})).status).toBeLessThan(300);
  return { id: cr.id as string, crBase };
}

describe('a space’s content and change requests', () => {
  it('stay in memory through a rename, and show a merge, an autosave and a deletion at once', async () => {
    const org = await h.org({ title: 'Content parts' });
    const c = org.admin.client;
    const reader = await h.member(org.id, 'read', { name: 'Reader' });
    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Handbook' })).body;
    const base = `/v1/spaces/${space.id}`;
    await draft(c, base, 'Intro', 'First live text', true);
    const pageId = (await c.get(`${base}/content`)).body.pages[0].id as string;
    const open = await draft(c, base, 'Draft page', 'Draft text', false);
    const crPageId = (await c.get(`${open.crBase}/content`)).body.pages.find(
      (p: { title: string }) => p.title === 'Draft page',
    ).id as string;

    const livePage = `${base}/content/page/${pageId}?format=markdown`;
    const crPage = `${open.crBase}/content/page/${crPageId}?format=markdown`;
    const kept = [livePage, `${base}/content/pages`, `${base}/content`, `${base}/change-requests`, open.crBase, crPage];
    await keep(c, kept);
    await keep(reader.client, kept);

    // A rename: the space's own answer shows it at once, the others stay.
    expect((await c.patch(base, { title: 'Handbook renamed', emoji: '1f4d8' })).status).toBe(200);
    const renamed = await get(reader.client, base);
    expect(renamed.hit).toBe(false);
    expect(renamed.res.body.title).toBe('Handbook renamed');
    expect(await hits(c, kept)).toEqual(allHits(kept));
    expect(await hits(reader.client, kept)).toEqual(allHits(kept));

    // An autosave of the change request: its answers show it at once, the live ones stay.
    const saved = await c.post(`${open.crBase}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: crPageId, document: { markdown: 'Autosaved draft' } }],
    });
    expect(saved.status).toBe(200);
    const live = [livePage, `${base}/content/pages`, `${base}/content`];
    expect(await hits(reader.client, live)).toEqual(allHits(live));
    const autosaved = await get(reader.client, crPage);
    expect(autosaved.hit).toBe(false);
    expect(autosaved.res.body.markdown).toContain('Autosaved draft');
    expect((await get(reader.client, open.crBase)).res.body.revision).toBe(saved.body.changeRequest.revision);

    // A merge of another change request moves the live revision: the live content and the open
    // change request (now outdated) show it at once.
    await keep(reader.client, kept);
    expect((await get(reader.client, open.crBase)).res.body.outdated).toBe(false);
    await draft(c, base, 'Merged page', 'Merged text', true);
    const pages = await get(reader.client, `${base}/content/pages`);
    expect(pages.hit).toBe(false);
    expect(pages.res.body.pages.map((p: { title: string }) => p.title)).toContain('Merged page');
    const outdated = await get(reader.client, open.crBase);
    expect(outdated.hit).toBe(false);
    expect(outdated.res.body.outdated).toBe(true);
    const list = await get(reader.client, `${base}/change-requests`);
    expect(list.hit).toBe(false);
    expect(list.res.body.items.find((i: { id: string }) => i.id === open.id).outdated).toBe(true);

    // The space deleted: none of its answers is served from memory.
    await keep(reader.client, kept);
    expect((await c.delete(base)).status).toBeLessThan(300);
    for (const url of kept) expect((await reader.client.get(url)).status, url).toBe(404);
  });
});
