/**
 * What a reader sees beyond the plain page: adaptive content (sections and site spaces shown by
 * their visitor condition, from signed JWT claims or unsigned `visitor.*` claims), tabs and embeds,
 * and the "Edit on GitHub/GitLab" link of a Git-synchronized space.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { edit, type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
let server: GitServer;
beforeAll(async () => {
  h = await createHarness({ fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 50 });
  server = await startGitServer({ user: 'alice', password: 'pw-for-tests' });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await h?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';

async function sectionCondition(w: PublishedWorld, condition: string | null) {
  const res = await w.admin.client.patch(`${w.api}/sections/${w.sections.api}`, { condition });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('adaptive content', () => {
  it('a section whose condition fails is hidden everywhere; unsigned visitor.* claims show it, kept in a cookie', async () => {
    const w = await publishedWorld(h);
    const before = await get(w.base);
    expect(before.body).toContain(`href="${w.base}/api"`);
    expect(before.headers['cache-control']).toBe('public, max-age=0, must-revalidate');

    await sectionCondition(w, 'visitor.claims.unsigned.beta === true');
    const hidden = await get(w.base);
    expect(hidden.status).toBe(200);
    expect(hidden.body).not.toContain(`href="${w.base}/api"`);
    // What a page shows now depends on the visitor: no shared cache may keep it.
    expect(hidden.headers['cache-control']).toBe('private, no-cache');
    expect((await get(`${w.base}/api`)).status).toBe(404);
    expect((await get(`${w.base}/api/endpoints.md`)).status).toBe(404);
    const llms = (await get(`${w.base}/llms.txt`)).body as string;
    expect(llms).toContain('Getting started');
    expect(llms).not.toContain('Endpoints');
    const search = await get(`${w.base}/~search.json?q=bearer`);
    expect(JSON.stringify(search.body)).not.toContain('Authentication');

    const shown = await get(`${w.base}?visitor.beta=true`);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain(`href="${w.base}/api"`);
    const cookie = cookieOf(shown);
    expect(cookie).toMatch(new RegExp(`^bindery_claims_${w.siteId}=`));
    expect(String(shown.headers['set-cookie'])).toContain('HttpOnly');
    // The claim is kept: the next pages need no query.
    const api = await get(`${w.base}/api`, { cookie });
    expect(api.status).toBe(200);
    expect(api.body).toContain('Endpoints');
    expect(((await get(`${w.base}/llms.txt`, { cookie })).body as string).includes('Endpoints')).toBe(true);
    // Another value is another visitor; a claim name that is not a plain name is ignored.
    expect((await get(`${w.base}/api?visitor.beta=false`)).status).toBe(404);
    expect((await get(`${w.base}/api?visitor.__proto__=true`)).status).toBe(404);

    // The condition removed: everyone sees the section again.
    await sectionCondition(w, null);
    expect((await get(`${w.base}/api`)).status).toBe(200);
  });

  it('on a visitor-auth site, conditions read the claims of the visitor token', async () => {
    const w = await publishedWorld(h, 'visitor-auth');
    const key = (await w.admin.client.get(`${w.api}/publishing/auth`)).body.privateKey as string;
    const token = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(key));
    await sectionCondition(w, 'visitor.claims.plan === "pro" || visitor.claims.roles.includes("staff")');

    const visit = async (claims: Record<string, unknown>, path: string) => {
      const entry = await get(`${w.base}?jwt_token=${await token(claims)}`);
      expect(entry.status).toBe(302);
      return get(`${w.base}${path}`, { cookie: cookieOf(entry) });
    };
    expect((await visit({ plan: 'pro' }, '/api')).status).toBe(200);
    expect((await visit({ plan: 'free', roles: ['staff'] }, '/api')).status).toBe(200);
    const free = await visit({ plan: 'free', roles: [] }, '/api');
    expect(free.status).toBe(404);
    const home = await visit({ plan: 'free' }, '');
    expect(home.status).toBe(200);
    expect(home.body).not.toContain(`href="${w.base}/api"`);
    // Unsigned claims cannot stand in for signed ones.
    expect((await visit({ plan: 'free' }, '/api?visitor.plan=pro')).status).toBe(404);
  });
});

describe('blocks', () => {
  it('tabs read whole without JavaScript (each title, then its content); an embed is a link card', async () => {
    const w = await publishedWorld(h);
    await edit(w.admin.client, w.guide, [
      () => [
        {
          operation: 'insert_page',
          title: 'Packages',
          document: {
            markdown: [
              '{% tabs %}',
              '{% tab title="npm" %}',
              'Run `npm install acme`.',
              '{% endtab %}',
              '{% tab title="Yarn" %}',
              'Run `yarn add acme`.',
              '{% endtab %}',
              '{% endtabs %}',
              '',
              '{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}',
            ].join('\n'),
          },
        },
      ],
    ]);
    const res = await get(`${w.base}/packages`);
    expect(res.status).toBe(200);
    const html = res.body as string;
    expect(html).toContain(
      '<div class="content-tabs"><div class="tab-panel" data-title="npm"><p class="tab-title"><strong>npm</strong></p><p>Run <code>npm install acme</code>.</p></div><div class="tab-panel" data-title="Yarn">',
    );
    expect(html).toContain('<p>Run <code>yarn add acme</code>.</p>');
    expect(html).toContain(
      '<div class="embed"><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener"><strong>www.youtube.com</strong><span>https://www.youtube.com/watch?v=dQw4w9WgXcQ</span></a></div>',
    );
    // No frame or script of the embedded service.
    expect(html).not.toContain('<iframe');
  });

  it('a reusable content shows in place of its include, with its headings in the table of contents', async () => {
    const w = await publishedWorld(h);
    const c = w.admin.client;
    const cr = (await c.post(`/v1/spaces/${w.guide}/change-requests`, { subject: 'Snippets' })).body.id as string;
    const content = `/v1/spaces/${w.guide}/change-requests/${cr}/content?compat=false`;
    const first = await c.post(content, {
      changes: [
        {
          operation: 'insert_reusable_content',
          title: 'Support',
          document: { markdown: '## Getting help\n\nWrite to **support@example.com**.' },
        },
      ],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const snippet = first.body.changes.find((x: { object: string }) => x.object === 'created_reusable_content')
      .reusableContent as string;
    const second = await c.post(content, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Contact',
          document: {
            markdown: `Before the snippet.\n\n{% include "/reusable-contents/${snippet}" %}\n\n{% hint style="info" %}\n{% include "/reusable-contents/${snippet}" %}\n{% endhint %}\n`,
          },
        },
      ],
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect((await c.post(`/v1/spaces/${w.guide}/change-requests/${cr}/merge`)).status).toBe(200);

    const html = (await get(`${w.base}/contact`)).body as string;
    expect(html).toContain('<p>Before the snippet.</p>');
    expect(html).toContain('<h3 id="getting-help">Getting help');
    expect(html).toContain('<a href="#getting-help">Getting help</a>');
    // Twice: in place, and inside the hint (the second heading gets its own anchor).
    expect(html.split('<strong>support@example.com</strong>').length - 1).toBe(2);
    expect(html).toContain('<h3 id="getting-help-2">');
    const markdown = (await get(`${w.base}/contact.md`)).body as string;
    expect(markdown).toContain('## Getting help');
    expect(markdown).not.toContain('include');
  });
});

describe('git.showEditLink', () => {
  it('a page of a space synchronized with GitLab links to its file there, when the site asks for it', async () => {
    const w = await publishedWorld(h);
    server.createRepo('docs', { LICENSE: 'MIT\n' });
    const exported = await w.admin.client.post(`/v1/spaces/${w.guide}/git/export`, {
      url: server.url('docs'),
      ref: 'refs/heads/main',
      commitMessage: 'Docs',
      gitInfo: { provider: 'gitlab', url: 'https://gitlab.example.com/acme/docs' },
    });
    expect(exported.status).toBe(204);
    for (let i = 0; i < 400; i++) {
      const info = await w.admin.client.get(`/v1/spaces/${w.guide}/git/info`);
      if (info.body.operation?.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(server.readTree('docs').has('deployment/docker.md')).toBe(true);

    expect((await get(`${w.base}/deployment/docker`)).body).not.toContain('Edit on');
    const put = await w.admin.client.put(`${w.api}/customization`, { git: { showEditLink: true } });
    expect(put.status).toBe(200);
    const page = (await get(`${w.base}/deployment/docker`)).body as string;
    expect(page).toContain(
      '<a class="edit-link" href="https://gitlab.example.com/acme/docs/-/edit/main/deployment/docker.md" rel="noopener">Edit on GitLab</a>',
    );
    const parent = (await get(`${w.base}/deployment`)).body as string;
    expect(parent).toContain('/-/edit/main/deployment/README.md');
    // The other space of the site is not synchronized: no link there.
    expect((await get(`${w.base}/api`)).body).not.toContain('Edit on');
  });
});
