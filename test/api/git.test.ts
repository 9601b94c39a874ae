/**
 * Git Sync through the official operations against a real Git server on loopback (git
 * http-backend, basic auth): import honouring .gitbook.yaml, SUMMARY.md and the project directory;
 * the state in getSpaceGitInfo and the space's gitSync; credentials never stored in clear, logged or
 * returned. Export, the round trip and export.zip: git-export.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import type { GitServer } from '../helpers/git-server.js';
import { flat, type GitSyncWorld, gitSyncWorld, livePages, outline, type Page, settled } from '../helpers/git-sync.js';

let h: Harness;
let guarded: Harness;
let server: GitServer;
let git: GitSyncWorld | undefined;
const PASSWORD = 's3cr3t-p@ss';

beforeAll(async () => {
  git = await gitSyncWorld({ user: 'alice', password: PASSWORD });
  ({ h, server } = git);
  guarded = await createHarness();
}, 180_000);
afterAll(async () => {
  await git?.close();
  await guarded?.close();
});

type Ctx = SpaceWorld;

const newSpace = (): Promise<Ctx> => h.space();

async function markdownOf(ctx: Ctx, spaceId: string, pageId: string): Promise<string> {
  return (await ctx.admin.client.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;
}

const GUIDE_REPO = {
  LICENSE: 'MIT\n',
  'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: SUMMARY.md\n',
  'docs/content/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](intro.md)',
    '* [Getting started](getting-started/README.md)',
    '  * [Install](getting-started/install.md)',
    '  * [Configure](getting-started/configure.md)',
    '',
    '## Reference',
    '',
    '* [API](reference/api.md)',
    '* [Website](https://example.com/)',
    '',
  ].join('\n'),
  'docs/content/intro.md':
    '---\ndescription: Where it starts\n---\n\n# Welcome\n\nRead [Install](getting-started/install.md#steps) first.\n\n![Logo](.gitbook/assets/logo.png)\n',
  'docs/content/getting-started/README.md':
    '# Getting started\n\n{% hint style="warning" %}\nBack up [first](../intro.md).\n{% endhint %}\n',
  'docs/content/getting-started/install.md':
    '# Install\n\n## Steps\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nThen [configure](configure.md).\n',
  'docs/content/getting-started/configure.md': '# Configure\n\nUp: [guide](./) and [api](../reference/api.md).\n',
  'docs/content/reference/api.md': '# API\n\nMissing: [nowhere](nowhere.md).\n',
  'docs/content/.gitbook/assets/logo.png': PNG,
  'docs/content/stray.md': '# Not in the summary\n',
};

describe('Git import', () => {
  it('reads .gitbook.yaml root, SUMMARY.md order, nesting and groups in the project directory', async () => {
    server.createRepo('guide', GUIDE_REPO);
    const ctx = await newSpace();
    const res = await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
      url: server.url('guide'),
      ref: 'refs/heads/main',
      repoProjectDirectory: 'docs',
    });
    expect(res.status).toBe(204);
    const info = await settled(ctx);
    expect(info.operation.error).toBeUndefined();
    expect(info).toMatchObject({
      installationStatus: 'active',
      // A plain Git server (loopback, no gitInfo): it does not claim to be GitHub.
      installationProvider: 'git',
      repoName: 'guide',
      operation: { state: 'success', direction: 'import' },
    });
    expect(info.operation.endedAt).toBeTypeOf('string');
    expect(JSON.stringify(info)).not.toContain(PASSWORD);

    const pages = await livePages(ctx);
    expect(outline(pages)).toEqual([
      ['document', 'Welcome', 'intro', []],
      [
        'document',
        'Getting started',
        'getting-started',
        [
          ['document', 'Install', 'getting-started/install', []],
          ['document', 'Configure', 'getting-started/configure', []],
        ],
      ],
      [
        'group',
        'Reference',
        'reference',
        [
          ['document', 'API', 'api', []],
          ['link', 'Website', 'https://example.com/', []],
        ],
      ],
    ]);
    const all = flat(pages);
    const byTitle = (t: string) => all.find((p) => p.title === t) as Page;
    const files = (await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content/files`)).body.items;
    expect(files).toMatchObject([{ name: 'logo.png', contentType: 'image/png', size: PNG.length }]);
    const intro = await markdownOf(ctx, ctx.spaceId, byTitle('Welcome').id);
    expect(intro).toBe(
      `Read [Install](/pages/${byTitle('Install').id}#steps) first.\n\n![Logo](/files/${files[0].id})\n`,
    );
    expect(
      (await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content/page/${byTitle('Welcome').id}`)).body.description,
    ).toBe('Where it starts');
    const guide = await markdownOf(ctx, ctx.spaceId, byTitle('Getting started').id);
    expect(guide).toBe(
      `{% hint style="warning" %}\nBack up [first](/pages/${byTitle('Welcome').id}).\n{% endhint %}\n`,
    );
    expect(await markdownOf(ctx, ctx.spaceId, byTitle('Configure').id)).toBe(
      `Up: [guide](/pages/${byTitle('Getting started').id}) and [api](/pages/${byTitle('API').id}).\n`,
    );
    expect(await markdownOf(ctx, ctx.spaceId, byTitle('API').id)).toBe('Missing: [nowhere](nowhere.md).\n');
    const install = await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content/page/${byTitle('Install').id}`);
    expect(install.body.document.nodes.map((n: { type: string }) => n.type)).toEqual([
      'heading-2',
      'table',
      'paragraph',
    ]);
    // The revision names the commit it came from, and pages their blobs.
    const revision = await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content`);
    expect(revision.body.git).toEqual({
      oid: server.head('guide'),
      message: 'Prepared by the test',
      createdByGitBook: false,
      ref: 'refs/heads/main',
    });
    const blobs = server.blobs('guide');
    expect(install.body.git).toEqual({
      oid: blobs.get('docs/content/getting-started/install.md'),
      path: 'docs/content/getting-started/install.md',
    });
    const space = await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}`);
    expect(space.body.gitSync).toMatchObject({ installationId: info.installationId, operation: { state: 'success' } });
    // The list shows the same state (read there only for the spaces that have one).
    const listed = await ctx.admin.client.get(`/v1/orgs/${ctx.orgId}/spaces?limit=1000`);
    const items = listed.body.items as { id: string; gitSync?: unknown }[];
    expect(items.find((s) => s.id === ctx.spaceId)?.gitSync).toEqual(space.body.gitSync);
    expect(items.filter((s) => s.gitSync)).toHaveLength(1);
  });

  it('reads .gitbook/includes into reusable contents that {% include %} refers to, keeping their ids', async () => {
    const files = {
      'README.md': '# Home\n\n{% include ".gitbook/includes/support.md" %}\n',
      'guide/setup.md':
        '# Setup\n\n{% include \'../.gitbook/includes/support.md\' %}\n\n{% include "../.gitbook/includes/gone.md" %}\n',
      '.gitbook/includes/support.md': '---\ntitle: Support contact\n---\n\nWrite to [home](../../README.md).\n',
      '.gitbook/includes/untitled-note.md': '# Note heading\n\nA note.\n',
    };
    server.createRepo('includes', files);
    const ctx = await newSpace();
    const run = async () => {
      await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
        url: server.url('includes'),
        ref: 'main',
      });
      expect((await settled(ctx)).operation.state).toBe('success');
      return (await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content`)).body;
    };
    const revision = await run();
    // Include files are neither pages nor files.
    expect(outline(revision.pages)).toEqual([
      ['document', 'Home', 'home', []],
      ['document', 'Setup', 'setup', []],
    ]);
    expect(revision.files).toEqual([]);
    const reusables = revision.reusableContents as Array<{ id: string; title: string }>;
    expect(reusables.map((r) => r.title)).toEqual(['Support contact', 'Note heading']);
    const support = reusables[0]!.id;
    const [home, setup] = revision.pages as Page[];
    expect(await markdownOf(ctx, ctx.spaceId, home!.id)).toBe(`{% include "/reusable-contents/${support}" %}\n`);
    // An include of a file the repository does not have stays as written.
    expect(await markdownOf(ctx, ctx.spaceId, setup!.id)).toBe(
      `{% include "/reusable-contents/${support}" %}\n\n{% include "../.gitbook/includes/gone.md" %}\n`,
    );
    const body = await ctx.admin.client.get(
      `/v1/spaces/${ctx.spaceId}/revisions/${revision.id}/reusable-contents/${support}/document`,
    );
    expect(JSON.stringify(body.body)).toContain(JSON.stringify({ kind: 'page', page: home!.id }));
    const note = await ctx.admin.client.get(
      `/v1/spaces/${ctx.spaceId}/revisions/${revision.id}/reusable-contents/${reusables[1]!.id}/document`,
    );
    expect(JSON.stringify(note.body)).not.toContain('Note heading');

    // Imported again: the same include files keep their reusable contents' ids.
    const again = await run();
    expect(again.id).not.toBe(revision.id);
    expect(again.reusableContents.map((r: { id: string }) => r.id)).toEqual(reusables.map((r) => r.id));
  });
});

describe('Git import of adaptive pages', () => {
  it("keeps a page's condition from its front matter, and fails on a malformed one, naming the file", async () => {
    server.createRepo('gated', {
      'README.md': '# Home\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Pro](pro.md)\n',
      'pro.md': "---\ncondition: visitor.claims.plan == 'pro'\n---\n\n# Pro\n\nFor pro plans.\n",
    });
    const ctx = await newSpace();
    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
      url: server.url('gated'),
      ref: 'refs/heads/main',
    });
    expect((await settled(ctx)).operation.state).toBe('success');
    const pages = (await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content`)).body.pages;
    const pro = pages.find((p: { title: string }) => p.title === 'Pro');
    expect(pro.condition).toBe("visitor.claims.plan == 'pro'");

    server.createRepo('malformed', {
      'README.md': '# Home\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Pro](pro.md)\n',
      'pro.md': '---\ncondition: visitor.claims.plan ==\n---\n\n# Pro\n',
    });
    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
      url: server.url('malformed'),
      ref: 'refs/heads/main',
    });
    const failed = await settled(ctx);
    expect(failed.operation.state).toBe('failure');
    expect(failed.operation.error).toContain('pro.md: condition is not a valid expression');
  });
});

describe('Git credentials and access', () => {
  it('never stores, logs or returns the credentials; a wrong password fails the operation', async () => {
    server.createRepo('private', { 'README.md': '# Private\n' });
    const ctx = await newSpace();
    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
      url: server.url('private', { user: 'alice', password: 'wrong-password-123' }),
      ref: 'refs/heads/main',
    });
    const failed = await settled(ctx);
    expect(failed.operation.state).toBe('failure');
    expect(failed.operation.error).toMatch(/401|auth/i);
    expect(JSON.stringify(failed)).not.toContain('wrong-password-123');
    expect(failed.url).toBe(server.url('private', false));

    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
      url: server.url('private'),
      ref: 'refs/heads/main',
    });
    expect((await settled(ctx)).operation.state).toBe('success');
    expect(server.authorizations.at(-1)).toMatch(/^Basic /);
    // Nothing in the database holds the password in clear: not the state, not the queued jobs.
    const rows = JSON.stringify([
      await h.db.selectFrom('git_sync').selectAll().where('space_id', '=', ctx.spaceId).execute(),
      await h.db.selectFrom('jobs').selectAll().where('kind', 'like', 'git.%').execute(),
    ]);
    expect(rows).not.toContain(PASSWORD);
    expect(rows).not.toContain(encodeURIComponent(PASSWORD));
    expect(rows).not.toContain('wrong-password-123');
    const space = await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}`);
    expect(JSON.stringify(space.body)).not.toContain(PASSWORD);
  });

  it('refuses private addresses unless allowed, bad refs and bodies, and checks who may do what', async () => {
    const org = await guarded.org();
    const space = (await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'G' })).body.id;
    const refused = await org.admin.client.post(`/v1/spaces/${space}/git/export`, {
      url: server.url('private'),
      ref: 'refs/heads/main',
      commitMessage: 'x',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('public address');
    expect(refused.body.error.message).not.toContain(PASSWORD);
    expect((await org.admin.client.get(`/v1/spaces/${space}/git/info`)).status).toBe(404);

    const ctx = await newSpace();
    const post = (path: string, body: unknown, who = ctx.admin) =>
      who.client.post(`/v1/spaces/${ctx.spaceId}/git/${path}`, body);
    expect((await post('export', { url: server.url('x'), ref: 'refs/heads/main' })).status).toBe(400);
    expect((await post('import', { url: 'ftp://example.com/x.git', ref: 'main' })).status).toBe(400);
    expect((await post('import', { url: server.url('x'), ref: '../../etc' })).status).toBe(400);
    expect((await post('import', { url: server.url('x'), ref: 'main', extra: 1 })).status).toBe(400);

    const reader = await h.member(ctx.orgId, 'read');
    const editor = await h.member(ctx.orgId, 'edit');
    const outsider = await h.user();
    const body = { url: server.url('guide'), ref: 'refs/heads/main' };
    expect((await post('import', body, reader)).status).toBe(403);
    expect((await post('import', body, editor)).status).toBe(403);
    expect((await post('import', body, outsider)).status).toBe(404);
    expect((await outsider.client.get(`/v1/spaces/${ctx.spaceId}/git/info`)).status).toBe(404);
    expect((await outsider.client.get(`/v1/spaces/${ctx.spaceId}/export.zip`)).status).toBe(404);
    expect((await post('import', { ...body, standalone: true }, editor)).status).toBe(204);
    // One operation at a time.
    expect((await post('import', { ...body, standalone: true }, editor)).status).toBe(409);
    expect((await settled(ctx)).operation.state).toBe('success');
    expect((await reader.client.get(`/v1/spaces/${ctx.spaceId}/git/info`)).status).toBe(200);
  });
});
