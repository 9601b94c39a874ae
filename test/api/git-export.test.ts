/**
 * Git Sync export through the official operations against a real Git server on loopback (git
 * http-backend, basic auth): export as a commit (unchanged files not rewritten); a round trip into
 * an empty space; a standalone import into a change request; the same layout as export.zip.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import type { GitServer } from '../helpers/git-server.js';
import { flat, type GitSyncWorld, gitSyncWorld, livePages, outline, type Page, settled } from '../helpers/git-sync.js';

let h: Harness;
let server: GitServer;
let git: GitSyncWorld | undefined;

beforeAll(async () => {
  git = await gitSyncWorld();
  ({ h, server } = git);
}, 180_000);
afterAll(async () => git?.close());

type Ctx = SpaceWorld;

const newSpace = (): Promise<Ctx> => h.space();

async function emptySpace(ctx: Ctx, title = 'Copy'): Promise<string> {
  return (await ctx.admin.client.post(`/v1/orgs/${ctx.orgId}/spaces`, { title })).body.id;
}

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
        condition: "visitor.claims.plan == 'pro'",
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
    bodies[page.title] = {
      markdown,
      description: read.description,
      emoji: read.emoji,
      hidden: read.hidden ?? false,
      condition: read.condition,
    };
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
    // A plain Git server: neither GitHub nor GitLab is claimed.
    expect(info.installationProvider).toBe('git');
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

describe('Git export of hostile names', () => {
  it('commits every file at a safe path inside the project directory, none over another', async () => {
    server.createRepo('hostile', { LICENSE: 'MIT\n' });
    const ctx = await newSpace();
    const names = ['../../../etc/evil', '..\\..\\evil.png', '/abs.png', 'a\u0001b.png', 'x.png', 'X.png'];
    const base = `/v1/spaces/${ctx.spaceId}/change-requests`;
    const cr = (await ctx.admin.client.post(base, { subject: 'Hostile' })).body.id;
    const changes = [
      {
        operation: 'insert_files',
        files: names.map((name, i) => ({
          ref: `f${i}`,
          name,
          contentType: 'image/png',
          base64: PNG.toString('base64'),
        })),
      },
      { operation: 'insert_page', title: 'Up', slug: '..', document: { markdown: 'Up.' } },
      { operation: 'insert_page', title: 'Summary', slug: 'SUMMARY', document: { markdown: 'Not the summary.' } },
    ];
    expect((await ctx.admin.client.post(`${base}/${cr}/content?compat=false`, { changes })).status).toBe(200);
    expect((await ctx.admin.client.post(`${base}/${cr}/merge`)).status).toBe(200);
    const exported = await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/export`, {
      url: server.url('hostile'),
      ref: 'refs/heads/main',
      repoProjectDirectory: '../../outside',
      commitMessage: 'Hostile names',
    });
    expect(exported.status, JSON.stringify(exported.body)).toBe(204);
    expect((await settled(ctx)).operation).toMatchObject({ state: 'success' });
    const paths = [...server.readTree('hostile').keys()].filter((p) => p !== 'LICENSE');
    for (const path of paths) {
      expect(path.startsWith('outside/'), path).toBe(true);
      expect(path, path).not.toMatch(/\\|\p{Cc}/u);
      for (const segment of path.split('/')) expect(['', '.', '..'], path).not.toContain(segment);
    }
    // Two pages, six files, SUMMARY.md and .gitbook.yaml: nothing overwritten.
    expect(new Set(paths.map((p) => p.toLowerCase())).size).toBe(2 + names.length + 2);
    expect(server.readTree('hostile').get('outside/SUMMARY.md')?.toString()).toMatch(/^# Table of contents/);
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
      "---\nhidden: true\ncondition: visitor.claims.plan == 'pro'\n---\n\n# Hidden notes\n\nSecret-ish.\n",
    );
    expect(Buffer.from(entries['.gitbook/assets/logo.png'] as Uint8Array)).toEqual(PNG);
    expect(strFromU8(entries['guide/setup.md'] as Uint8Array)).toContain(
      '{% include "../.gitbook/includes/install-steps.md" %}',
    );
    const docs = await ctx.admin.client.get('/v1/openapi.json');
    expect(docs.body.paths['/v1/spaces/{spaceId}/export.zip']?.get?.operationId).toBe('exportSpaceZip');
  });
});
