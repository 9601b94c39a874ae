/**
 * Invalidation by part of an organization (src/db/scope-parts.ts): an autosave, a comment or a
 * rename drops the answers that show the change request or space written, and leaves the rest of
 * the organization's answers in memory (its row, its members, its other spaces, the live pages),
 * while every answer that shows the change is computed anew: never a stale answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerScope } from '../../src/core/answer-scope.js';
import { scopesAtCommit, WriteScope, WrittenTables } from '../../src/db/write-scope.js';
import { type Client, createHarness, type Harness } from '../helpers/app.js';
import { cacheReads } from '../helpers/cache-hits.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

// A database of this file's own: other files' writes to a shared PostgreSQL database reach this
// app as other processes' changes, and the hits expected here would come and go.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('part-scopes');
  h = await createHarness({ ownDatabase: database.url });
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});
const { get, hits, keep } = cacheReads(() => h);

/** A space with a merged page and an open change request editing it. */
async function spaceWithDraft(client: Client, orgId: string, title: string) {
  const space = (await client.post(`/v1/orgs/${orgId}/spaces`, { title })).body;
  const base = `/v1/spaces/${space.id}`;
  const first = (await client.post(`${base}/change-requests`, { subject: 'Seed' })).body;
  const seeded = await client.post(`${base}/change-requests/${first.id}/content`, {
    changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Live text' } }],
  });
  expect(seeded.status).toBe(200);
  expect((await client.post(`${base}/change-requests/${first.id}/merge`, {})).status).toBeLessThan(300);
  const pageId = (await client.get(`${base}/content`)).body.pages[0].id as string;
  const cr = (await client.post(`${base}/change-requests`, { subject: 'Draft' })).body;
  const crBase = `${base}/change-requests/${cr.id}`;
  return { id: space.id as string, base, pageId, crId: cr.id as string, crBase };
}

describe('a write of one part of an organization', () => {
  it('drops the answers showing it and keeps the rest of the organization in memory', async () => {
    const org = await h.org({ title: 'Parts' });
    const c = org.admin.client;
    const reader = await h.member(org.id, 'read', { name: 'Reader' });
    const one = await spaceWithDraft(c, org.id, 'One');
    const two = await spaceWithDraft(c, org.id, 'Two');
    const crPage = (s: typeof one) => `${s.crBase}/content/page/${s.pageId}?format=markdown`;
    const livePage = (s: typeof one) => `${s.base}/content/page/${s.pageId}?format=markdown`;

    const orgBase = [
      `/v1/orgs/${org.id}`,
      `/v1/orgs/${org.id}/members`,
      `/v1/orgs/${org.id}/members/${reader.user.id}`,
    ];
    const ofTwo = [
      two.base,
      `${two.base}/change-requests`,
      two.crBase,
      crPage(two),
      livePage(two),
      `${two.base}/content/pages`,
    ];
    const search = `/v1/orgs/${org.id}/search?query=Live`;
    const liveOfOne = [one.base, livePage(one), `${one.base}/content/pages`, `/v1/orgs/${org.id}/spaces`, search];
    const draftOfOne = [one.crBase, crPage(one), `${one.base}/change-requests`];
    const all = [...orgBase, ...ofTwo, ...liveOfOne, ...draftOfOne];
    await keep(c, all);
    await keep(reader.client, orgBase);

    // An autosave of change request One: its answers go, the rest stay.
    const saved = await c.post(`${one.crBase}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: one.pageId, document: { markdown: 'Autosaved text' } }],
    });
    expect(saved.status).toBe(200);
    expect(await hits(c, [...orgBase, ...ofTwo, ...liveOfOne])).toEqual(
      Object.fromEntries([...orgBase, ...ofTwo, ...liveOfOne].map((u) => [u, true])),
    );
    expect(await hits(reader.client, orgBase)).toEqual(Object.fromEntries(orgBase.map((u) => [u, true])));
    const draft = await get(c, crPage(one));
    expect(draft.hit).toBe(false);
    expect(draft.res.body.markdown).toContain('Autosaved text');
    const cr = await get(c, one.crBase);
    expect(cr.hit).toBe(false);
    expect(cr.res.body.revision).toBe(saved.body.revision ?? cr.res.body.revision);
    const list = await get(c, `${one.base}/change-requests`);
    expect(list.hit).toBe(false);
    expect(list.res.body.items.find((i: { id: string }) => i.id === one.crId).updatedAt).toBe(cr.res.body.updatedAt);
    expect((await get(c, livePage(one))).res.body.markdown).toContain('Live text');

    // A comment on it: the change request's answers go (they count its comments).
    await keep(c, draftOfOne);
    const comment = await c.post(`${one.crBase}/comments`, { body: { markdown: 'Looks good' } });
    expect(comment.status).toBe(201);
    expect(await hits(c, [...orgBase, ...ofTwo, ...liveOfOne])).toEqual(
      Object.fromEntries([...orgBase, ...ofTwo, ...liveOfOne].map((u) => [u, true])),
    );
    expect((await get(c, one.crBase)).hit).toBe(false);
    const comments = await c.get(`${one.crBase}/comments`);
    expect(comments.body.items.map((i: { id: string }) => i.id)).toContain(comment.body.id);

    // A new change request changes the space's counts and the list of spaces.
    await keep(c, [...liveOfOne, ...draftOfOne]);
    const countBefore = (await get(c, one.base)).res.body;
    const opened = await c.post(`${one.base}/change-requests`, { subject: 'Another' });
    expect(opened.status).toBe(201);
    const space = await get(c, one.base);
    expect(space.hit).toBe(false);
    expect(JSON.stringify(space.res.body)).not.toBe(JSON.stringify(countBefore));
    expect((await get(c, `/v1/orgs/${org.id}/spaces`)).hit).toBe(false);
    expect((await get(c, `${one.base}/change-requests`)).res.body.items.map((i: { id: string }) => i.id)).toContain(
      opened.body.id,
    );
    expect(await hits(c, [...orgBase, ...ofTwo])).toEqual(
      Object.fromEntries([...orgBase, ...ofTwo].map((u) => [u, true])),
    );

    // A rename of space One: its answers and the list of spaces show the new title at once.
    await keep(c, all);
    expect((await c.patch(one.base, { title: 'One renamed' })).status).toBe(200);
    expect(await hits(c, [...orgBase, ...ofTwo])).toEqual(
      Object.fromEntries([...orgBase, ...ofTwo].map((u) => [u, true])),
    );
    const renamed = await get(c, one.base);
    expect(renamed.hit).toBe(false);
    expect(renamed.res.body.title).toBe('One renamed');
    const spaces = (await get(c, `/v1/orgs/${org.id}/spaces`)).res.body.items as { id: string; title: string }[];
    expect(spaces.find((s) => s.id === one.id)?.title).toBe('One renamed');
    const found = await get(c, search);
    expect(found.hit).toBe(false);
    expect(JSON.stringify(found.res.body)).toContain('One renamed');

    // A change of the organization's base (a member's role) drops every answer of the organization.
    await keep(c, all);
    const role = await c.patch(`/v1/orgs/${org.id}/members/${reader.user.id}`, { role: 'edit' });
    expect(role.status).toBeLessThan(300);
    const after = await hits(c, all);
    expect(
      Object.values(after).every((hit) => !hit),
      JSON.stringify(after),
    ).toBe(true);
    expect((await get(c, `/v1/orgs/${org.id}/members/${reader.user.id}`)).res.body.role).toBe('edit');
  });
});

describe('the checks by table', () => {
  it('makes an answer that read a part table it did not name depend on its whole organization', () => {
    const answer = new AnswerScope('u1');
    answer.organizations.add('o1');
    answer.bounded = true;
    answer.parts = new Set(['space:s1']);
    answer.tablesRead.add('spaces');
    expect(answer.dependencies()).toEqual(['user:u1', 'orgbase:o1', 'space:s1']);
    answer.tablesRead.add('change_requests'); // not covered by a space
    expect(answer.dependencies()).toEqual(['user:u1', 'org:o1']);
    answer.parts.add('cr:c1');
    expect(answer.dependencies()).toEqual(['user:u1', 'orgbase:o1', 'space:s1', 'cr:c1']);
    answer.tablesRead.add('events'); // the audit log: never shown by parts
    expect(answer.dependencies()).toEqual(['user:u1', 'org:o1']);
  });

  it('makes a write of part rows it did not declare a write of the organization’s base', async () => {
    const { inWriteScope, declareChangeRequestWrite, declareSpaceWrite } = await import('../../src/db/write-scope.js');
    const commitOf = (statements: [string, number][], declare: () => void) =>
      inWriteScope(() => {
        declare();
        const written = new WrittenTables();
        for (const [sql, rows] of statements) written.note(sql, rows);
        return scopesAtCommit(written);
      });
    const autosave: [string, number][] = [
      ['insert into "revisions" ("id") values (?)', 1],
      ['update "change_requests" set "revision_id" = ? where "id" = ?', 1],
      ['insert into "events" ("id") values (?)', 1],
    ];
    expect(commitOf(autosave, () => declareChangeRequestWrite('o1', 's1', 'c1', { sameStatus: true }))).toEqual([
      'org:o1',
      'cr:c1',
      'space-crs:s1',
    ]);
    // The same statements with the space's row written too: not covered by a change request.
    const alsoSpace: [string, number][] = [...autosave, ['update "spaces" set "title" = ? where "id" = ?', 1]];
    expect(commitOf(alsoSpace, () => declareChangeRequestWrite('o1', 's1', 'c1'))).toContain('orgbase:o1');
    // Two spaces' rows for one declared space.
    expect(commitOf([['update "spaces" set "parent_id" = ?', 2]], () => declareSpaceWrite('o1', 's1'))).toContain(
      'orgbase:o1',
    );
    expect(commitOf([['update "spaces" set "title" = ?', 1]], () => declareSpaceWrite('o1', 's1'))).toEqual([
      'org:o1',
      'space:s1',
      'org-spaces:o1',
      'org-space-set:o1',
    ]);
    const rename = () => declareSpaceWrite('o1', 's1', { sameExistence: true });
    expect(commitOf([['update "spaces" set "title" = ?', 1]], rename)).toEqual(['org:o1', 'space:s1', 'org-spaces:o1']);
    // A base table.
    expect(commitOf([['update "teams" set "title" = ?', 1]], () => declareSpaceWrite('o1', 's1'))).toContain(
      'orgbase:o1',
    );
    // No declaration at all (only the organization, from the event): the base.
    const onlyOrg = new WriteScope();
    expect(onlyOrg.parts.size).toBe(0);
  });
});
