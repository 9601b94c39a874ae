/**
 * The revision history through HTTP: every revision of a space (the first merge, later merges, a
 * change request's own revisions, a Git import) read by id with its pages, files, reusable contents
 * and documents, and its semantic changes against its parent. Who may read a revision, what is a
 * 404 and bad input: revisions-access.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import type { GitServer } from '../helpers/git-server.js';
import { type GitSyncWorld, gitSyncWorld } from '../helpers/git-sync.js';
import { type History, history, merged, newSpace } from '../helpers/revisions.js';

let h: Harness;
let git: GitServer;
let world: GitSyncWorld | undefined;
beforeAll(async () => {
  // The Git import test needs the job worker and the Git server on loopback.
  world = await gitSyncWorld();
  ({ h, server: git } = world);
}, 180_000);
afterAll(async () => world?.close());

describe('revision history', () => {
  let hist: History;
  beforeAll(async () => {
    hist = await history(h);
  });

  it('reads a past revision by id as it was, with its merge and parents', async () => {
    const { ctx, first, second } = hist;
    const space = await ctx.admin.client.get(ctx.base);
    expect(space.body.revision).toBe(second);

    const old = await ctx.admin.client.get(`${ctx.base}/revisions/${first}`);
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ object: 'revision', id: first, type: 'merge' });
    expect(old.body.pages.map((p: { title: string }) => p.title)).toEqual(['Guide', 'Setup', 'Extra']);
    expect(old.body.files.map((f: { name: string }) => f.name)).toEqual(['pixel.png', 'notes.txt']);
    expect(old.body.reusableContents).toEqual([
      expect.objectContaining({ id: hist.snippet, title: 'Snippet', git: expect.any(Object) }),
    ]);
    expect(old.body.mergedFrom).toMatchObject({ object: 'change-request', status: 'merged' });
    expect(old.body.urls.app).toBe(`http://bindery.test/s/${ctx.spaceId}/~/revisions/${first}`);

    const now = await ctx.admin.client.get(`${ctx.base}/revisions/${second}`);
    expect(now.body.parents[0]).toBe(first);
    expect(now.body.mergedFrom.id).toBe(hist.secondCr);
    const guide = now.body.pages[0];
    expect(guide).toMatchObject({ title: 'Guide v2', path: 'guide' });
    expect(guide.pages.map((p: { title: string; path: string }) => [p.title, p.path])).toEqual([
      ['Extra', 'guide/extra'],
    ]);
    // The live content answers the same revision the same way.
    const live = await ctx.admin.client.get(`${ctx.base}/content`);
    expect(live.body.id).toBe(second);
    expect(live.body.pages[0].title).toBe(now.body.pages[0].title);

    const lean = await ctx.admin.client.get(`${ctx.base}/revisions/${first}?metadata=false&computed=false`);
    expect(lean.body.pages[0].git).toBeUndefined();
    expect(lean.body.files[0].git).toBeUndefined();
    expect(old.body.pages[0].git).toEqual({ oid: expect.any(String), path: 'guide.md' });
  });

  it('reads a change request revision that was never merged (edits, one parent)', async () => {
    const { ctx, second } = hist;
    const cr = await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject: 'Draft' });
    const edit = await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Draft page', document: { markdown: 'wip' } }],
    });
    const revision = edit.body.revision ?? edit.body.changeRequest.revision;
    const res = await ctx.admin.client.get(`${ctx.base}/revisions/${revision}`);
    expect(res.body).toMatchObject({ type: 'edits', parents: [second] });
    expect(res.body.mergedFrom).toBeUndefined();
    const changes = await ctx.admin.client.get(`${ctx.base}/revisions/${revision}/changes`);
    expect(changes.body).toEqual({
      changes: [
        {
          type: 'page_created',
          page: { id: expect.any(String), type: 'document', title: 'Draft page', path: 'draft-page' },
        },
      ],
    });
    // The live content did not move.
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${second}/pages`)).body.pages).toHaveLength(1);
  });

  it('lists the pages of a revision as they were', async () => {
    const { ctx, first, second } = hist;
    const old = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/pages`);
    expect(old.status).toBe(200);
    expect(old.body.pages.map((p: { title: string; pages: unknown[] }) => [p.title, p.pages.length])).toEqual([
      ['Guide', 0],
      ['Setup', 0],
      ['Extra', 0],
    ]);
    expect(old.body.pages[1].emoji).toBe('1f680');
    const now = await ctx.admin.client.get(`${ctx.base}/revisions/${second}/pages?metadata=false`);
    expect(now.body.pages).toHaveLength(1);
    expect(now.body.pages[0].git).toBeUndefined();
    expect(now.body.pages[0].pages[0].id).toBe(hist.extra);
  });

  it('lists files with paging and reads one file, with a download URL of that revision', async () => {
    const { ctx, first } = hist;
    const all = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/files`);
    expect(all.body).toMatchObject({ count: 2 });
    expect(all.body.next).toBeUndefined();
    const page1 = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/files?limit=1`);
    expect(page1.body.items.map((f: { id: string }) => f.id)).toEqual([hist.pixel]);
    expect(page1.body.count).toBe(2);
    const page2 = await ctx.admin.client.get(
      `${ctx.base}/revisions/${first}/files?limit=1&page=${page1.body.next.page}`,
    );
    expect(page2.body.items.map((f: { id: string }) => f.id)).toEqual([hist.notes]);
    expect(page2.body.next).toBeUndefined();
    const none = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/files?limit=0`);
    expect(none.body).toEqual({ items: [], count: 2 });

    const file = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/files/${hist.pixel}`);
    expect(file.body).toMatchObject({
      id: hist.pixel,
      name: 'pixel.png',
      contentType: 'image/png',
      size: PNG.length,
      dimensions: { width: 2, height: 3 },
      git: { path: '.gitbook/assets/pixel.png' },
    });
    const download = await ctx.admin.client.get(file.body.downloadURL.replace('http://bindery.test', ''));
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-length']).toBe(String(PNG.length));
    const lean = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/files/${hist.pixel}?metadata=false`);
    expect(lean.body.git).toBeUndefined();
  });

  it('reads a page by id and by path, as a document or Markdown with relative or stable references', async () => {
    const { ctx, first, second } = hist;
    const page = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/page/${hist.guide}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id: hist.guide, title: 'Guide', type: 'document', path: 'guide' });
    expect(page.body.document.object).toBe('document');
    expect(page.body.urls.app).toBe(`http://bindery.test/s/${ctx.spaceId}/~/revisions/${first}/guide`);

    const relative = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/page/${hist.guide}?format=markdown`);
    expect(relative.body.markdown).toBe('See [setup](setup.md) and ![pixel](.gitbook/assets/pixel.png).\n');
    expect(relative.body.document).toBeUndefined();
    const stable = await ctx.admin.client.get(
      `${ctx.base}/revisions/${first}/page/${hist.guide}?format=markdown&format.markdown.refs=stable`,
    );
    expect(stable.body.markdown).toBe(`See [setup](/pages/${hist.setup}) and ![pixel](/files/${hist.pixel}).\n`);

    // The same page later: its new title, body and place.
    const later = await ctx.admin.client.get(`${ctx.base}/revisions/${second}/page/${hist.guide}?format=markdown`);
    expect(later.body).toMatchObject({ title: 'Guide v2', markdown: 'Rewritten.\n' });
    const nested = await ctx.admin.client.get(`${ctx.base}/revisions/${second}/path/guide/extra`);
    expect(nested.body).toMatchObject({ id: hist.extra, path: 'guide/extra' });
    const top = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/path/extra?format=markdown`);
    expect(top.body).toMatchObject({ id: hist.extra, markdown: 'More.\n' });
    const slashes = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/path/setup/`);
    expect(slashes.body.id).toBe(hist.setup);
    // A page deleted later is still in the revision that had it, and only there.
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${first}/page/${hist.setup}`)).status).toBe(200);
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${second}/page/${hist.setup}`)).status).toBe(404);
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${second}/path/setup`)).status).toBe(404);
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${second}/path/extra`)).status).toBe(404);
  });

  it('reads the documents of pages and reusable contents', async () => {
    const { ctx, first, second } = hist;
    const doc = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/page/${hist.setup}/document`);
    expect(doc.status).toBe(200);
    expect(doc.body.object).toBe('document');
    expect(JSON.stringify(doc.body.nodes)).toContain('Install it.');
    const flags = await ctx.admin.client.get(
      `${ctx.base}/revisions/${first}/page/${hist.setup}/document?evaluated=deterministic-only&dereferenced=true`,
    );
    expect(flags.body).toEqual(doc.body);

    const reusable = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/reusable-contents/${hist.snippet}`);
    expect(reusable.body).toMatchObject({ id: hist.snippet, title: 'Snippet', document: expect.any(String) });
    expect(reusable.body.git.path).toMatch(/^\.gitbook\/includes\//);
    const renamed = await ctx.admin.client.get(
      `${ctx.base}/revisions/${second}/reusable-contents/${hist.snippet}?metadata=false`,
    );
    expect(renamed.body).toEqual({ id: hist.snippet, title: 'Shared snippet', document: reusable.body.document });
    const body = await ctx.admin.client.get(
      `${ctx.base}/revisions/${first}/reusable-contents/${hist.snippet}/document?dereferenced=reusable-contents`,
    );
    expect(body.status).toBe(200);
    expect(JSON.stringify(body.body.nodes)).toContain('Shared text.');
  });

  it('answers the semantic changes of each revision against its parent', async () => {
    const { ctx, first, second } = hist;
    const created = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/changes`);
    expect(created.status).toBe(200);
    expect(created.body.mergedFrom.status).toBe('merged');
    expect(created.body.changes.map((c: { type: string }) => c.type)).toEqual([
      'page_created',
      'page_created',
      'page_created',
      'file_created',
      'file_created',
      'reusable_content_created',
    ]);
    expect(created.body.changes[3].file).toEqual({
      id: hist.pixel,
      name: 'pixel.png',
      contentType: 'image/png',
      downloadURL: `http://bindery.test/v1/spaces/${ctx.spaceId}/revisions/${first}/files/${hist.pixel}/download`,
    });

    const changes = await ctx.admin.client.get(`${ctx.base}/revisions/${second}/changes`);
    expect(changes.body.mergedFrom.id).toBe(hist.secondCr);
    expect(changes.body.more).toBeUndefined();
    const guide = { id: hist.guide, type: 'document', title: 'Guide v2', path: 'guide' };
    expect(changes.body.changes).toEqual([
      {
        type: 'page_edited',
        page: guide,
        attributes: {
          title: { before: 'Guide', after: 'Guide v2' },
          document: { before: expect.any(String), after: expect.any(String) },
        },
      },
      {
        type: 'page_moved',
        page: { id: hist.extra, type: 'document', title: 'Extra', path: 'guide/extra' },
        parent: { after: guide },
      },
      { type: 'page_deleted', page: { id: hist.setup, type: 'document', title: 'Setup', path: 'setup' } },
      {
        type: 'reusable_content_edited',
        reusableContent: { id: hist.snippet, title: 'Shared snippet', document: expect.any(String) },
        attributes: { title: { before: 'Snippet', after: 'Shared snippet' } },
      },
    ]);
    const edited = changes.body.changes[0].attributes.document;
    expect(edited.before).not.toBe(edited.after);

    // limit: the first changes, and how many were left out.
    const two = await ctx.admin.client.get(`${ctx.base}/revisions/${second}/changes?limit=2`);
    expect(two.body.changes.map((c: { type: string }) => c.type)).toEqual(['page_edited', 'page_moved']);
    expect(two.body.more).toBe(2);
    const zero = await ctx.admin.client.get(`${ctx.base}/revisions/${second}/changes?limit=0`);
    expect(zero.body).toMatchObject({ changes: [], more: 4 });
    const many = await ctx.admin.client.get(`${ctx.base}/revisions/${first}/changes?limit=1000`);
    expect(many.body.changes).toHaveLength(6);
  });

  it('defaults to ten changes', async () => {
    const ctx = await newSpace(h);
    const pages = Array.from({ length: 12 }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${i}`,
      document: { markdown: `p${i}` },
    }));
    const { revision } = await merged(ctx, pages);
    const res = await ctx.admin.client.get(`${ctx.base}/revisions/${revision}/changes`);
    expect(res.body.changes).toHaveLength(10);
    expect(res.body.more).toBe(2);
    expect(res.body.changes[9].page.title).toBe('Page 9');
  });

  it('reports files removed and added by a Git import', async () => {
    const { ctx, second } = hist;
    git.createRepo('history', {
      'SUMMARY.md': '# Table of contents\n\n* [Guide v2](guide/README.md)\n  * [Extra](guide/extra.md)\n',
      'guide/README.md': '# Guide v2\n\nRewritten.\n\n![pixel](../.gitbook/assets/pixel.png)\n',
      'guide/extra.md': '# Extra\n\nMore.\n',
      '.gitbook/assets/pixel.png': PNG,
      '.gitbook/assets/new.txt': 'new file',
    });
    const started = await ctx.admin.client.post(`${ctx.base}/git/import`, {
      url: git.url('history'),
      ref: 'refs/heads/main',
    });
    expect(started.status).toBe(204);
    let info = await ctx.admin.client.get(`${ctx.base}/git/info`);
    for (let i = 0; i < 400 && info.body.operation.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      info = await ctx.admin.client.get(`${ctx.base}/git/info`);
    }
    expect(info.body.operation.state).toBe('success');
    const live = (await ctx.admin.client.get(ctx.base)).body.revision;
    const revision = await ctx.admin.client.get(`${ctx.base}/revisions/${live}`);
    expect(revision.body).toMatchObject({ type: 'edits', parents: [second], git: { oid: git.head('history') } });

    const changes = await ctx.admin.client.get(`${ctx.base}/revisions/${live}/changes?limit=100`);
    const byType = (type: string) => changes.body.changes.filter((c: { type: string }) => c.type === type);
    expect(byType('file_deleted').map((c: { file: { id: string } }) => c.file.id)).toEqual([hist.notes]);
    // A removed file is named with its download URL in the revision that still has it.
    expect(byType('file_deleted')[0].file.downloadURL).toContain(`/revisions/${second}/files/${hist.notes}/`);
    expect(byType('file_created').map((c: { file: { name: string } }) => c.file.name)).toEqual(['new.txt']);
    // Pages at the same paths keep their ids: none created or removed.
    expect(byType('page_created')).toEqual([]);
    expect(byType('page_deleted')).toEqual([]);
    expect(changes.body.mergedFrom).toBeUndefined();
    // The Git metadata of the import is the revision's, and not the previous one's.
    const file = await ctx.admin.client.get(`${ctx.base}/revisions/${live}/files/${byType('file_created')[0].file.id}`);
    expect(file.body.git).toEqual({
      oid: git.blobs('history').get('.gitbook/assets/new.txt'),
      path: '.gitbook/assets/new.txt',
    });
  });

  it('answers a first revision against nothing, and an untouched space with its empty revision', async () => {
    const ctx = await newSpace(h);
    const space = await ctx.admin.client.get(ctx.base);
    const empty = await ctx.admin.client.get(`${ctx.base}/revisions/${space.body.revision}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ type: 'edits', parents: [], pages: [], files: [], reusableContents: [] });
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${space.body.revision}/changes`)).body).toEqual({
      changes: [],
    });
  });
});
