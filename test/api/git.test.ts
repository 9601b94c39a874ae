/**
 * Git Sync through the official operations against a real Git server on loopback (git
 * http-backend, basic auth): import honouring .gitbook.yaml, SUMMARY.md and the project directory;
 * export as a commit (unchanged files not rewritten); a round trip into an empty space; the state
 * in getSpaceGitInfo and the space's gitSync; credentials never stored in clear, logged or returned.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';

let h: Harness;
let guarded: Harness;
let server: GitServer;
const PASSWORD = 's3cr3t-p@ss';

beforeAll(async () => {
  h = await createHarness({ fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 50 });
  guarded = await createHarness();
  server = await startGitServer({ user: 'alice', password: PASSWORD });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await h?.close();
  await guarded?.close();
});

interface Ctx {
  admin: TestUser;
  orgId: string;
  spaceId: string;
}

async function newSpace(title = 'Docs'): Promise<Ctx> {
  const org = await h.org();
  const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title });
  return { admin: org.admin, orgId: org.id, spaceId: space.body.id };
}

async function emptySpace(ctx: Ctx, title = 'Copy'): Promise<string> {
  return (await ctx.admin.client.post(`/v1/orgs/${ctx.orgId}/spaces`, { title })).body.id;
}

/** Waits for the space's last Git operation to end; returns its state. */
async function settled(ctx: Ctx, spaceId = ctx.spaceId) {
  for (let i = 0; i < 400; i++) {
    const info = await ctx.admin.client.get(`/v1/spaces/${spaceId}/git/info`);
    if (info.status === 200 && info.body.operation.state !== 'running') return info.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the Git operation did not end');
}

type Page = { id: string; title: string; path?: string; type: string; pages?: Page[]; href?: string };

function outline(pages: Page[]): unknown[] {
  return pages.map((p) => [p.type, p.title, p.path ?? p.href ?? '', outline(p.pages ?? [])]);
}

function flat(pages: Page[], out: Page[] = []): Page[] {
  for (const page of pages) {
    out.push(page);
    flat(page.pages ?? [], out);
  }
  return out;
}

async function livePages(ctx: Ctx, spaceId = ctx.spaceId): Promise<Page[]> {
  const res = await ctx.admin.client.get(`/v1/spaces/${spaceId}/content/pages`);
  expect(res.status).toBe(200);
  return res.body.pages;
}

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
      installationProvider: 'github',
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

/** A space with nested pages, a hint, a table, an image and cross-page links, merged live. */
async function seed(ctx: Ctx) {
  const base = `/v1/spaces/${ctx.spaceId}/change-requests`;
  const cr = (await ctx.admin.client.post(base, { subject: 'Seed' })).body.id;
  const first = await ctx.admin.client.post(`${base}/${cr}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_files',
        files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') }],
      },
      {
        operation: 'insert_page',
        ref: 'home',
        title: 'Home',
        description: 'The start',
        emoji: '🏠',
        document: { markdown: 'Welcome. See [the guide](./guide.md).\n\n![Logo](./logo)\n' },
      },
      {
        operation: 'insert_page',
        ref: 'guide',
        title: 'Guide',
        document: {
          markdown:
            '{% hint style="info" %}\nRead **this** first.\n{% endhint %}\n\n| Name | Value |\n| ---- | ----- |\n| a | `1` |\n\n' +
            '{% tabs %}\n{% tab title="macOS" %}\nUse `brew`.\n{% endtab %}\n\n{% tab title="Linux" %}\nUse `apt`.\n{% endtab %}\n{% endtabs %}\n\n' +
            '{% embed url="https://example.com/video" %}\n',
        },
      },
      {
        operation: 'insert_reusable_content',
        title: 'Install steps',
        document: { markdown: 'Run `make install`.\n\n{% hint style="warning" %}\nNeeds **root**.\n{% endhint %}\n' },
      },
    ],
  });
  expect(first.status).toBe(200);
  const steps = first.body.changes.find(
    (c: { object: string }) => c.object === 'created_reusable_content',
  ).reusableContent;
  const guideId = first.body.changes.find((c: { ref?: string }) => c.ref === 'guide').page.id;
  const homeId = first.body.changes.find((c: { ref?: string }) => c.ref === 'home').page.id;
  const second = await ctx.admin.client.post(`${base}/${cr}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_page',
        ref: 'setup',
        into: guideId,
        title: 'Setup',
        document: {
          markdown: `## Steps\n\n1. Install\n2. Run\n\n{% include "/reusable-contents/${steps}" %}\n\nBack to [home](../home.md) or [steps](#steps).\n`,
        },
      },
      {
        operation: 'insert_page',
        into: guideId,
        title: 'Hidden notes',
        hidden: true,
        document: { markdown: 'Secret-ish.' },
      },
      { operation: 'insert_page', type: 'group', title: 'More' },
    ],
  });
  expect(second.status).toBe(200);
  const groupId = second.body.changes[2].page.id;
  const third = await ctx.admin.client.post(`${base}/${cr}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_page',
        into: groupId,
        title: 'FAQ',
        document: { markdown: 'Ask [setup](guide/setup.md#steps).' },
      },
      {
        operation: 'update_page',
        page: homeId,
        document: {
          markdown:
            'Welcome. See [the guide](guide/README.md) and [setup](guide/setup.md).\n\n![Logo](.gitbook/assets/logo.png)\n',
        },
      },
    ],
  });
  expect(third.status).toBe(200);
  expect((await ctx.admin.client.post(`${base}/${cr}/merge`)).status).toBe(200);
}

/** Bodies with page and file ids replaced by titles and names, to compare two spaces. */
async function snapshotOf(ctx: Ctx, spaceId: string) {
  const pages = await livePages(ctx, spaceId);
  const files = (await ctx.admin.client.get(`/v1/spaces/${spaceId}/content/files`)).body.items as Array<{
    id: string;
    name: string;
    size: number;
    contentType: string;
  }>;
  const live = (await ctx.admin.client.get(`/v1/spaces/${spaceId}/content`)).body;
  const reusables = live.reusableContents as Array<{ id: string; title: string }>;
  const names = new Map<string, string>();
  for (const p of flat(pages)) names.set(p.id, `page:${p.title}`);
  for (const f of files) names.set(f.id, `file:${f.name}`);
  for (const r of reusables) names.set(r.id, `reusable:${r.title}`);
  const included: Record<string, unknown> = {};
  for (const r of reusables) {
    const url = `/v1/spaces/${spaceId}/revisions/${live.id}/reusable-contents/${r.id}/document`;
    included[r.title] = (await ctx.admin.client.get(url)).body;
  }
  const bodies: Record<string, unknown> = {};
  for (const page of flat(pages)) {
    if (page.type !== 'document') continue;
    const read = (await ctx.admin.client.get(`/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`)).body;
    const markdown = (read.markdown as string).replace(
      /\/(pages|files|reusable-contents)\/([A-Za-z0-9_-]+)/g,
      (_: string, kind: string, id: string) => `<${names.get(id) ?? `${kind}:?`}>`,
    );
    bodies[page.title] = { markdown, description: read.description, emoji: read.emoji, hidden: read.hidden ?? false };
  }
  return {
    outline: outline(pages),
    bodies,
    files: files.map((f) => ({ name: f.name, size: f.size, contentType: f.contentType })),
    included,
  };
}

describe('Git export', () => {
  it('commits the layout, skips unchanged files, and round-trips into an empty space', async () => {
    server.createRepo('roundtrip', { LICENSE: 'MIT\n', '.github/ci.yml': 'on: push\n' });
    const ctx = await newSpace();
    await seed(ctx);
    const exported = await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/export`, {
      url: server.url('roundtrip'),
      ref: 'refs/heads/main',
      commitMessage: 'Docs from Bindery',
    });
    expect(exported.status).toBe(204);
    const info = await settled(ctx);
    expect(info.operation.error).toBeUndefined();
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(server.log('roundtrip')).toEqual(['Docs from Bindery', 'Prepared by the test']);
    const tree = server.readTree('roundtrip');
    expect([...tree.keys()].sort()).toEqual(
      [
        '.github/ci.yml',
        '.gitbook.yaml',
        '.gitbook/assets/logo.png',
        '.gitbook/includes/install-steps.md',
        'LICENSE',
        'SUMMARY.md',
        'faq.md',
        'guide/README.md',
        'guide/hidden-notes.md',
        'guide/setup.md',
        'home.md',
      ].sort(),
    );
    expect(tree.get('SUMMARY.md')?.toString()).toBe(
      [
        '# Table of contents',
        '',
        '* [Home](home.md)',
        '* [Guide](guide/README.md)',
        '  * [Setup](guide/setup.md)',
        '  * [Hidden notes](guide/hidden-notes.md)',
        '',
        '## More',
        '',
        '* [FAQ](faq.md)',
        '',
      ].join('\n'),
    );
    expect(tree.get('home.md')?.toString()).toBe(
      '---\ndescription: The start\nemoji: 🏠\n---\n\n# Home\n\nWelcome. See [the guide](guide/README.md) and [setup](guide/setup.md).\n\n![Logo](.gitbook/assets/logo.png)\n',
    );
    expect(tree.get('guide/README.md')?.toString()).toContain(
      '{% hint style="info" %}\nRead **this** first.\n{% endhint %}',
    );
    expect(tree.get('guide/README.md')?.toString()).toContain(
      '{% tabs %}\n{% tab title="macOS" %}\nUse `brew`.\n{% endtab %}\n\n{% tab title="Linux" %}\nUse `apt`.\n{% endtab %}\n{% endtabs %}\n\n{% embed url="https://example.com/video" %}\n',
    );
    expect(tree.get('guide/setup.md')?.toString()).toContain(
      '{% include "../.gitbook/includes/install-steps.md" %}\n\nBack to [home](../home.md) or [steps](#steps).',
    );
    expect(tree.get('.gitbook/includes/install-steps.md')?.toString()).toBe(
      '---\ntitle: Install steps\n---\n\nRun `make install`.\n\n{% hint style="warning" %}\nNeeds **root**.\n{% endhint %}\n',
    );
    expect(tree.get('.gitbook/assets/logo.png')).toEqual(PNG);
    expect(tree.get('.gitbook.yaml')?.toString()).toContain('readme: home.md');

    // The revision and its pages name the commit and the blobs.
    const head = server.head('roundtrip');
    const blobs = server.blobs('roundtrip');
    const revision = await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/content`);
    expect(revision.body.git).toEqual({
      oid: head,
      message: 'Docs from Bindery',
      createdByGitBook: true,
      ref: 'refs/heads/main',
    });
    const home = flat(revision.body.pages).find((p: Page) => p.title === 'Home') as Page & { git: unknown };
    expect(home.git).toEqual({ oid: blobs.get('home.md'), path: 'home.md' });
    expect(revision.body.files[0].git).toEqual({
      oid: blobs.get('.gitbook/assets/logo.png'),
      path: '.gitbook/assets/logo.png',
    });

    // Nothing changed: no commit. One page changed: one blob changes, the others are the same objects.
    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/export`, {
      url: server.url('roundtrip'),
      ref: 'refs/heads/main',
      commitMessage: 'Again',
    });
    expect((await settled(ctx)).operation.state).toBe('success');
    expect(server.head('roundtrip')).toBe(head);
    const base = `/v1/spaces/${ctx.spaceId}/change-requests`;
    const cr = (await ctx.admin.client.post(base, { subject: 'Edit' })).body.id;
    const faq = flat(revision.body.pages).find((p: Page) => p.title === 'FAQ') as Page;
    await ctx.admin.client.post(`${base}/${cr}/content`, {
      changes: [
        { operation: 'update_page', page: faq.id, document: { markdown: 'Ask [setup](guide/setup.md#steps) again.' } },
      ],
    });
    expect((await ctx.admin.client.post(`${base}/${cr}/merge`)).status).toBe(200);
    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/export`, {
      url: server.url('roundtrip'),
      ref: 'refs/heads/main',
      commitMessage: 'Edit FAQ',
    });
    expect((await settled(ctx)).operation.state).toBe('success');
    const after = server.blobs('roundtrip');
    const changed = [...after].filter(([path, oid]) => blobs.get(path) !== oid).map(([path]) => path);
    expect(changed).toEqual(['faq.md']);
    expect(server.log('roundtrip')[0]).toBe('Edit FAQ');

    // Import into an empty space: the same tree, titles, bodies and files.
    const copy = await emptySpace(ctx);
    const imported = await ctx.admin.client.post(`/v1/spaces/${copy}/git/import`, {
      url: server.url('roundtrip'),
      ref: 'refs/heads/main',
    });
    expect(imported.status).toBe(204);
    const copyInfo = await settled(ctx, copy);
    expect(copyInfo.operation.error).toBeUndefined();
    expect(copyInfo.operation.state).toBe('success');
    const copied = await snapshotOf(ctx, copy);
    expect(copied).toEqual(await snapshotOf(ctx, ctx.spaceId));
    // The reusable content came back, and the page includes the copy's own.
    expect(Object.keys(copied.included)).toEqual(['Install steps']);
    expect((copied.bodies.Setup as { markdown: string }).markdown).toContain(
      '{% include "<reusable:Install steps>" %}',
    );
  });

  it('imports into a change request when standalone, leaving the live content alone', async () => {
    server.createRepo('standalone', { 'README.md': '# Hello\n\nFrom Git.\n' });
    const ctx = await newSpace();
    await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
      url: server.url('standalone'),
      ref: 'main',
      standalone: true,
    });
    expect((await settled(ctx)).operation.state).toBe('success');
    expect(await livePages(ctx)).toEqual([]);
    const crs = (await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/change-requests`)).body.items;
    expect(crs).toHaveLength(1);
    const pages = (await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/change-requests/${crs[0].id}/content/pages`))
      .body.pages;
    expect(outline(pages)).toEqual([['document', 'Hello', 'hello', []]]);
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

describe('export.zip', () => {
  it('downloads the same layout as a zip', async () => {
    const ctx = await newSpace();
    await seed(ctx);
    const res = await ctx.admin.client.get(`/v1/spaces/${ctx.spaceId}/export.zip`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const raw = await h.app.inject({
      url: `/v1/spaces/${ctx.spaceId}/export.zip`,
      headers: { authorization: `Bearer ${ctx.admin.token}` },
    });
    const entries = unzipSync(new Uint8Array(raw.rawPayload));
    expect(Object.keys(entries).sort()).toEqual(
      [
        '.gitbook.yaml',
        '.gitbook/assets/logo.png',
        '.gitbook/includes/install-steps.md',
        'SUMMARY.md',
        'faq.md',
        'guide/README.md',
        'guide/hidden-notes.md',
        'guide/setup.md',
        'home.md',
      ].sort(),
    );
    expect(strFromU8(entries['guide/hidden-notes.md'] as Uint8Array)).toBe(
      '---\nhidden: true\n---\n\n# Hidden notes\n\nSecret-ish.\n',
    );
    expect(Buffer.from(entries['.gitbook/assets/logo.png'] as Uint8Array)).toEqual(PNG);
    expect(strFromU8(entries['guide/setup.md'] as Uint8Array)).toContain(
      '{% include "../.gitbook/includes/install-steps.md" %}',
    );
    const docs = await ctx.admin.client.get('/v1/openapi.json');
    expect(docs.body.paths['/v1/spaces/{spaceId}/export.zip']?.get?.operationId).toBe('exportSpaceZip');
  });
});
