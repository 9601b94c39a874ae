/**
 * Relative Markdown links as Git Sync repositories write them (`second-page.md`, `guide/install.md`,
 * `../README.md`, `./other.md#anchor`, `folder/`) become page references in batch edits and imports,
 * so links and backlinks see them; one that resolves to nothing counts as broken.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

interface Ctx {
  admin: TestUser;
  base: string;
}

async function newChangeRequest(): Promise<Ctx> {
  const org = await h.org();
  const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Links' });
  const cr = await org.admin.client.post(`/v1/spaces/${space.body.id}/change-requests`, { subject: 'Links' });
  return { admin: org.admin, base: `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content` };
}

type Page = { id: string; title: string; path: string; pages?: Page[] };

function byPath(pages: Page[], out = new Map<string, Page>()): Map<string, Page> {
  for (const page of pages) {
    out.set(page.path, page);
    byPath(page.pages ?? [], out);
  }
  return out;
}

async function linksOf(ctx: Ctx, pageId: string) {
  const res = await ctx.admin.client.get(`${ctx.base}/page/${pageId}/links`);
  expect(res.status).toBe(200);
  return res.body as {
    items: Array<{ target: { kind: string; page?: string; anchor?: string; url?: string }; status: string }>;
    stats: { total: number; broken: { total: number } };
  };
}

async function backlinkIds(ctx: Ctx, pageId: string): Promise<string[]> {
  const res = await ctx.admin.client.get(`${ctx.base}/page/${pageId}/backlinks`);
  expect(res.status).toBe(200);
  return res.body.items.map((p: { id: string }) => p.id).sort();
}

describe('relative Markdown links', () => {
  it('resolve in a batch inserting pages that link each other, from where each page lands', async () => {
    const ctx = await newChangeRequest();
    const first = await ctx.admin.client.post(`${ctx.base}?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Getting started', document: { markdown: 'Soon.' } }],
    });
    const guideId = first.body.changes[0].page.id;
    // Several pages at once, nested and at the top, linking each other (and the guide rewritten).
    const res = await ctx.admin.client.post(`${ctx.base}?compat=false`, {
      changes: [
        {
          operation: 'insert_page',
          at: 0,
          document: {
            markdown:
              '# Home\n\nSee [Second](second-page.md), [Install](getting-started/install.md), ' +
              '[the guide](getting-started/) and [setup](./getting-started/install.md#setup).',
          },
        },
        { operation: 'insert_page', document: { markdown: '# Second page\n\nBack [home](./home.md).' } },
        {
          operation: 'insert_page',
          into: guideId,
          document: {
            markdown:
              '# Install\n\n## Setup\n\nUp to [the guide](README.md), [Second](../second-page.md), ' +
              '[home](../README.md) and [missing](../nope.md).',
          },
        },
        // The guide now has a subpage: it is `getting-started/README.md`, so `install.md` is its child.
        { operation: 'update_page', page: guideId, document: { markdown: 'Read [Install](install.md).' } },
      ],
    });
    expect(res.status).toBe(200);
    const tree = byPath((await ctx.admin.client.get(`${ctx.base}/pages`)).body.pages);
    const home = tree.get('home') as Page;
    const second = tree.get('second-page') as Page;
    const install = tree.get('getting-started/install') as Page;
    expect([home, second, install].every(Boolean)).toBe(true);

    const fromHome = await linksOf(ctx, home.id);
    expect(fromHome.items.map((l) => l.target)).toEqual([
      { kind: 'page', page: second.id },
      { kind: 'page', page: install.id },
      { kind: 'page', page: guideId },
      { kind: 'anchor', page: install.id, anchor: 'setup' },
    ]);
    expect(fromHome.stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 0 } });
    expect((await linksOf(ctx, second.id)).items.map((l) => l.target)).toEqual([{ kind: 'page', page: home.id }]);
    expect((await linksOf(ctx, guideId)).items.map((l) => l.target)).toEqual([{ kind: 'page', page: install.id }]);

    // `../README.md` from `getting-started/install.md` is the root README: the first page, Home.
    const fromInstall = await linksOf(ctx, install.id);
    expect(fromInstall.items.map((l) => l.target)).toEqual([
      { kind: 'page', page: guideId },
      { kind: 'page', page: second.id },
      { kind: 'page', page: home.id },
      { kind: 'url', url: '../nope.md' },
    ]);
    expect(fromInstall.items.map((l) => l.status)).toEqual(['ok', 'ok', 'ok', 'broken']);
    expect(fromInstall.stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 1 } });

    expect(await backlinkIds(ctx, second.id)).toEqual([home.id, install.id].sort());
    expect(await backlinkIds(ctx, guideId)).toEqual([home.id, install.id].sort());
    expect(await backlinkIds(ctx, home.id)).toEqual([install.id, second.id].sort());
    expect(await backlinkIds(ctx, install.id)).toEqual([guideId, home.id].sort());

    // The Markdown read back holds the references; the unresolved link is kept as written.
    const md = (await ctx.admin.client.get(`${ctx.base}/page/${install.id}?format=markdown`)).body.markdown;
    expect(md).toContain(`[Second](/pages/${second.id})`);
    expect(md).toContain('[missing](../nope.md)');
  });

  it('resolve a folder page, a subpage and an image of .gitbook/assets in one batch', async () => {
    const ctx = await newChangeRequest();
    const res = await ctx.admin.client.post(`${ctx.base}?compat=false`, {
      changes: [
        {
          operation: 'insert_files',
          files: [{ name: 'diagram.png', contentType: 'image/png', base64: PNG.toString('base64') }],
        },
        {
          operation: 'insert_page',
          ref: 'guide',
          title: 'Guide',
          document: { markdown: 'Start at [step one](step-one.md).' },
        },
        {
          operation: 'insert_page',
          ref: 'intro',
          title: 'Intro',
          document: { markdown: 'Go to [the guide](guide/).' },
        },
      ],
    });
    expect(res.status).toBe(200);
    const guideId = res.body.changes[0].page.id;
    const child = await ctx.admin.client.post(`${ctx.base}?compat=false`, {
      changes: [
        {
          operation: 'insert_page',
          into: guideId,
          title: 'Step one',
          document: {
            markdown:
              'Back to [the guide](README.md) and [intro](../intro.md).\n\n![Diagram](../.gitbook/assets/diagram.png)',
          },
        },
        // Rewritten now that the guide has a subpage: it is `guide/README.md`, so `step-one.md` is its child.
        { operation: 'update_page', page: guideId, document: { markdown: 'Start at [step one](step-one.md).' } },
      ],
    });
    expect(child.status).toBe(200);
    const stepId = child.body.changes[0].page.id;
    const fileId = res.body.insertedFiles[0].id;
    const fromStep = await linksOf(ctx, stepId);
    expect(fromStep.items.map((l) => l.target)).toEqual([
      { kind: 'page', page: guideId },
      { kind: 'page', page: res.body.changes[1].page.id },
      { kind: 'file', file: fileId },
    ]);
    expect(fromStep.stats.broken.total).toBe(0);
    const fromGuide = await linksOf(ctx, guideId);
    expect(fromGuide.items.map((l) => l.target)).toEqual([{ kind: 'page', page: stepId }]);
    expect(await backlinkIds(ctx, stepId)).toEqual([guideId]);
    const fileBack = await ctx.admin.client.get(`${ctx.base}/files/${fileId}/backlinks`);
    expect(fileBack.body.items.map((p: { id: string }) => p.id)).toEqual([stepId]);
  });

  it('resolve in a zip import with folders, and a broken one counts as broken', async () => {
    const ctx = await newChangeRequest();
    const zip = zipSync({
      'README.md': strToU8('# Overview\n\n[Install](getting-started/install.md) and [missing](nowhere.md).\n'),
      'getting-started/README.md': strToU8(
        '# Getting started\n\n[Install](./install.md#step-2) [Home](../README.md)\n',
      ),
      'getting-started/install.md': strToU8('# Install\n\n## Step 2\n\nSee [the folder](./) and [overview](../).\n'),
    });
    const res = await ctx.admin.client.post(`${ctx.base}/import`, {
      source: 'zip',
      url: `data:application/zip;base64,${Buffer.from(zip).toString('base64')}`,
    });
    expect(res.status).toBe(200);
    const tree = byPath((await ctx.admin.client.get(`${ctx.base}/pages`)).body.pages);
    const overview = tree.get('overview') as Page;
    const guide = tree.get('getting-started') as Page;
    const install = tree.get('getting-started/install') as Page;
    const fromOverview = await linksOf(ctx, overview.id);
    expect(fromOverview.items.map((l) => [l.target, l.status])).toEqual([
      [{ kind: 'page', page: install.id }, 'ok'],
      [{ kind: 'url', url: 'nowhere.md' }, 'broken'],
    ]);
    expect(fromOverview.stats.broken.total).toBe(1);
    expect((await linksOf(ctx, guide.id)).items.map((l) => [l.target, l.status])).toEqual([
      [{ kind: 'anchor', page: install.id, anchor: 'step-2' }, 'ok'],
      [{ kind: 'page', page: overview.id }, 'ok'],
    ]);
    expect((await linksOf(ctx, install.id)).items.map((l) => l.target)).toEqual([
      { kind: 'page', page: guide.id },
      { kind: 'page', page: overview.id },
    ]);
    expect(await backlinkIds(ctx, install.id)).toEqual([guide.id, overview.id].sort());
    expect(await backlinkIds(ctx, overview.id)).toEqual([guide.id, install.id].sort());
  });

  it('resolve in a Markdown import from where the page lands', async () => {
    const ctx = await newChangeRequest();
    await ctx.admin.client.post(ctx.base, {
      changes: [{ operation: 'insert_page', title: 'Target', document: { markdown: '## Here\n\ntext' } }],
    });
    const markdown = '# Imported\n\nTo [target](target.md#here) and [gone](gone.md).';
    const res = await ctx.admin.client.post(`${ctx.base}/import`, {
      source: 'markdown',
      url: `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}`,
    });
    expect(res.status).toBe(200);
    const tree = byPath((await ctx.admin.client.get(`${ctx.base}/pages`)).body.pages);
    const links = await linksOf(ctx, (tree.get('imported') as Page).id);
    expect(links.items.map((l) => [l.target, l.status])).toEqual([
      [{ kind: 'anchor', page: (tree.get('target') as Page).id, anchor: 'here' }, 'ok'],
      [{ kind: 'url', url: 'gone.md' }, 'broken'],
    ]);
  });
});
