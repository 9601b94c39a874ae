/**
 * Content search through HTTP (`searchOrganizationContent`, `searchSpaceContent`): every call through
 * the official client, its answer validated against the official schemas. Ranking (title over body,
 * phrase over words), marks in the excerpts, CJK and substring queries, paging at its limits,
 * authorization, live content only, reusable contents where they are included, bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitBookAPI } from '../contract/official.js';
import { type ContractServer, startContractServer } from '../contract/server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from '../contract/validate.js';
import type { Client } from '../helpers/app.js';
import { publish } from '../helpers/ask.js';

const OPERATIONS = ['searchOrganizationContent', 'searchSpaceContent'] as const;

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

interface World {
  orgId: string;
  admin: Client;
  adminApi: GitBookAPI;
  readerApi: GitBookAPI;
  guide: string;
  secret: string;
  pages: Record<string, string>;
}

const GUIDE = [
  { title: 'Webhooks', markdown: 'Receive events over HTTP.\n\n## Retries\n\nDeliveries are retried for a day.' },
  {
    title: 'Events',
    markdown:
      'Each change records an event; webhooks receive them and so does the audit log.\n\n' +
      '## Signing\n\nTo stay safe, rotate the signing secret every month.',
  },
  {
    title: 'Operations',
    markdown: 'The secret is kept sealed. Signing happens on delivery; rotate keys through the settings.',
  },
  { title: 'Installation', markdown: 'Run the installer, then open the console. Escape <script> tags.' },
  {
    title: '安装指南',
    markdown: '安装服务器的方法很简单。\n\nサーバーの設定を変更します。\n\n서버를 설치하는 방법입니다.',
  },
];
const SECRET = [{ title: 'Zeppelin plan', markdown: 'The Zeppelin orchestration launch is confidential.' }];

async function world(): Promise<World> {
  const { id, admin } = await server.harness.org();
  const c = admin.client;
  const guide = (await c.post(`/v1/orgs/${id}/spaces`, { title: 'Guide' })).body.id as string;
  const secret = (await c.post(`/v1/orgs/${id}/spaces`, { title: 'Secret' })).body.id as string;
  expect((await c.patch(`/v1/spaces/${secret}`, { defaultLevel: null })).status).toBe(200);
  const pages = { ...(await publish(c, guide, GUIDE)), ...(await publish(c, secret, SECRET)) };
  const reader = await server.harness.member(id, 'read');
  return {
    orgId: id,
    admin: c,
    adminApi: server.client(admin.token),
    readerApi: server.client(reader.token),
    guide,
    secret,
    pages,
  };
}

const orgSearch = (api: GitBookAPI, orgId: string, query: Record<string, unknown>) =>
  expectConforms(
    'searchOrganizationContent',
    api.orgs.searchOrganizationContent(orgId, query as { query: string }),
    200,
  ).then((r) => r.data);
const spaceSearch = (api: GitBookAPI, spaceId: string, query: Record<string, unknown>) =>
  expectConforms('searchSpaceContent', api.spaces.searchSpaceContent(spaceId, query as { query: string }), 200).then(
    (r) => r.data,
  );
const titles = (items: Array<{ title: string }>) => items.map((p) => p.title);

describe('content search', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('ranks a match in the title over one in the text, with ranks, paths, ancestors and app URLs', async () => {
    const res = await spaceSearch(w.readerApi, w.guide, { query: 'webhooks' });
    expect(titles(res.items).slice(0, 2)).toEqual(['Webhooks', 'Events']);
    expect(res.items.map((p) => p.rank)).toEqual(res.items.map((_, i) => i + 1));
    const [top] = res.items;
    expect(top?.resultType).toBe('page');
    expect(top?.path).toBe('webhooks');
    expect(top?.ancestors).toEqual([]);
    expect(top?.urls.app).toBe(`http://bindery.test/s/${w.guide}/webhooks`);
    expect(res.count).toBe(res.items.length);
  });

  it('ranks the whole phrase over its words apart', async () => {
    const res = await spaceSearch(w.readerApi, w.guide, { query: 'rotate the signing secret' });
    expect(titles(res.items).slice(0, 2)).toEqual(['Events', 'Operations']);
    const section = res.items[0]?.sections?.[0];
    expect(section?.title).toBe('Signing');
    expect(section?.path).toBe('events#signing');
    expect(section?.urls.app).toBe(`http://bindery.test/s/${w.guide}/events#signing`);
    expect(section?.body).toBe('To stay safe, <mark>rotate the signing secret</mark> every month.');
  });

  it('marks every match in the excerpt, keeping its case, and escapes the text around it', async () => {
    const res = await spaceSearch(w.readerApi, w.guide, { query: 'installer script' });
    const body = res.items[0]?.sections?.[0]?.body;
    expect(res.items[0]?.title).toBe('Installation');
    expect(body).toBe(
      'Run the <mark>installer</mark>, then open the console. Escape &lt;<mark>script</mark>&gt; tags.',
    );
    const events = await spaceSearch(w.readerApi, w.guide, { query: 'Webhooks' });
    expect(events.items[1]?.sections?.[0]?.body).toContain('<mark>webhooks</mark> receive them');
  });

  it('finds Chinese, Japanese and Korean text without spaces, whole or in part', async () => {
    // 'バー' is folded as its terms are ('ハー'); '安' is one letter (a scan, not the pairs index).
    for (const query of ['安装服务器', '如何安装服务器', '設定', 'サーバーの設定', 'バー', '서버', '설치하는', '安']) {
      const res = await spaceSearch(w.readerApi, w.guide, { query });
      expect(titles(res.items), query).toEqual(['安装指南']);
    }
    const res = await spaceSearch(w.readerApi, w.guide, { query: '安装服务器' });
    expect(res.items[0]?.resultType).toBe('section');
    expect(res.items[0]?.sections?.[0]?.body).toContain('<mark>安装服务器</mark>的方法');
    const title = await spaceSearch(w.readerApi, w.guide, { query: '指南' });
    expect(title.items[0]?.resultType).toBe('page');
    expect((await spaceSearch(w.readerApi, w.guide, { query: '飞机' })).items).toEqual([]);
  });

  it('finds parts of words of three letters or more, not of two', async () => {
    expect(titles((await spaceSearch(w.readerApi, w.guide, { query: 'stall' })).items)).toEqual(['Installation']);
    expect(titles((await spaceSearch(w.readerApi, w.guide, { query: 'sta' })).items)).toContain('Installation');
    const part = await spaceSearch(w.readerApi, w.guide, { query: 'ebhoo' });
    expect(titles(part.items).slice(0, 2)).toEqual(['Webhooks', 'Events']);
    expect(part.items[1]?.sections?.[0]?.body).toContain('w<mark>ebhoo</mark>ks');
    expect((await spaceSearch(w.readerApi, w.guide, { query: 'ns' })).items).toEqual([]);
  });

  it('pages by `limit` and `page`, keeping each result global rank', async () => {
    const all = await spaceSearch(w.readerApi, w.guide, { query: 'signing webhooks' });
    expect(all.count).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await spaceSearch(w.readerApi, w.guide, { query: 'signing webhooks', limit: 1, page });
      expect(res.items).toHaveLength(1);
      expect(res.count).toBe(all.count);
      expect(res.items[0]?.rank).toBe(seen.length + 1);
      seen.push(res.items[0]?.id as string);
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((p) => p.id));
    const none = await spaceSearch(w.readerApi, w.guide, { query: 'webhooks', limit: 0 });
    expect(none.items).toEqual([]);
    expect(none.count).toBe(2);
    expect(none.next).toBeUndefined();
    expect((await spaceSearch(w.readerApi, w.guide, { query: 'webhooks', limit: 1000 })).count).toBe(none.count);
    for (const limit of [-1, 1001, 1.5]) {
      await expectApiError(
        'searchSpaceContent',
        w.readerApi.spaces.searchSpaceContent(w.guide, { query: 'webhooks', limit }),
        400,
      );
    }
    await expectApiError(
      'searchSpaceContent',
      w.readerApi.spaces.searchSpaceContent(w.guide, { query: 'webhooks', page: 'not-a-cursor' }),
      400,
    );
  });

  it('searches every space the caller can read, grouped by space, and nothing of the others', async () => {
    const admin = await orgSearch(w.adminApi, w.orgId, { query: 'webhooks zeppelin', limit: 1000 });
    expect(admin.items.map((s) => s.title).sort()).toEqual(['Guide', 'Secret']);
    for (const space of admin.items) expect(space.pages.length).toBeGreaterThan(0);
    const ranks = admin.items.flatMap((s) => s.pages.map((p) => p.rank)).sort((a, b) => a - b);
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
    expect(admin.count).toBe(ranks.length);

    const reader = await orgSearch(w.readerApi, w.orgId, { query: 'webhooks zeppelin' });
    expect(reader.items.map((s) => s.title)).toEqual(['Guide']);
    expect(reader.count).toBe((admin.count ?? 0) - 1);
    const secretOnly = await orgSearch(w.readerApi, w.orgId, { query: 'zeppelin orchestration' });
    expect(secretOnly).toEqual({ items: [], count: 0 });
    await expectApiError(
      'searchSpaceContent',
      w.readerApi.spaces.searchSpaceContent(w.secret, { query: 'zeppelin' }),
      404,
    );
    await expectApiError(
      'searchSpaceContent',
      w.readerApi.spaces.searchSpaceContent('nope', { query: 'zeppelin' }),
      404,
    );
    expect(titles(await spaceSearch(w.adminApi, w.secret, { query: 'zeppelin' }).then((r) => r.items))).toEqual([
      'Zeppelin plan',
    ]);

    // Paged across spaces: one page per call, the ranks continuing.
    const first = await orgSearch(w.adminApi, w.orgId, { query: 'webhooks zeppelin', limit: 1 });
    expect(first.items.flatMap((s) => s.pages)).toHaveLength(1);
    const second = await orgSearch(w.adminApi, w.orgId, {
      query: 'webhooks zeppelin',
      limit: 1,
      page: first.next?.page,
    });
    expect(second.items.flatMap((s) => s.pages.map((p) => p.rank))).toEqual([2]);
  });

  it('answers 404 to outsiders and guests of the organization', async () => {
    const other = await server.harness.org();
    const outsider = server.client(other.admin.token);
    await expectApiError(
      'searchOrganizationContent',
      outsider.orgs.searchOrganizationContent(w.orgId, { query: 'webhooks' }),
      404,
    );
    await expectApiError('searchSpaceContent', outsider.spaces.searchSpaceContent(w.guide, { query: 'webhooks' }), 404);
    const guest = server.client((await server.harness.member(w.orgId, null)).token);
    await expectApiError(
      'searchOrganizationContent',
      guest.orgs.searchOrganizationContent(w.orgId, { query: 'webhooks' }),
      404,
    );
    expect((await outsider.orgs.searchOrganizationContent(other.id, { query: 'webhooks' })).data).toEqual({
      items: [],
      count: 0,
    });
  });

  it('refuses an empty, blank or too long query, and a missing one', async () => {
    for (const query of ['', '   ', 'a'.repeat(513)]) {
      await expectApiError('searchSpaceContent', w.readerApi.spaces.searchSpaceContent(w.guide, { query }), 400);
      await expectApiError(
        'searchOrganizationContent',
        w.readerApi.orgs.searchOrganizationContent(w.orgId, { query }),
        400,
      );
    }
    await expectApiError(
      'searchSpaceContent',
      w.readerApi.spaces.searchSpaceContent(w.guide, {} as { query: string }),
      400,
    );
    const longest = await spaceSearch(w.readerApi, w.guide, { query: `webhooks ${'a'.repeat(503)}` });
    expect(longest.count).toBeGreaterThanOrEqual(0);
    expect((await spaceSearch(w.readerApi, w.guide, { query: '!!!' })).items).toEqual([]);
  });
});

describe('content search follows the live content', () => {
  it('finds a change request text only once it is merged, and a reusable content where it is included', async () => {
    const w = await world();
    const c = w.admin;
    const cr = (await c.post(`/v1/spaces/${w.guide}/change-requests`, { subject: 'Draft' })).body.id as string;
    const content = `/v1/spaces/${w.guide}/change-requests/${cr}/content?compat=false`;
    const first = await c.post(content, {
      changes: [
        {
          operation: 'insert_reusable_content',
          title: 'Support',
          document: { markdown: '## Getting help\n\nWrite to the quokka helpdesk.' },
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
          document: { markdown: `Pangolin hours are nine to five.\n\n{% include "/reusable-contents/${snippet}" %}\n` },
        },
      ],
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect((await spaceSearch(w.adminApi, w.guide, { query: 'pangolin' })).items).toEqual([]);
    expect((await orgSearch(w.adminApi, w.orgId, { query: 'quokka' })).items).toEqual([]);

    expect((await c.post(`/v1/spaces/${w.guide}/change-requests/${cr}/merge`)).status).toBe(200);
    expect(titles((await spaceSearch(w.adminApi, w.guide, { query: 'pangolin' })).items)).toEqual(['Contact']);
    const included = await spaceSearch(w.adminApi, w.guide, { query: 'quokka helpdesk' });
    expect(titles(included.items)).toEqual(['Contact']);
    expect(included.items[0]?.sections?.[0]).toMatchObject({
      title: 'Getting help',
      body: 'Write to the <mark>quokka helpdesk</mark>.',
    });

    // A deleted space is searched no more.
    expect((await c.delete(`/v1/spaces/${w.guide}`)).status).toBe(204);
    expect((await orgSearch(w.adminApi, w.orgId, { query: 'pangolin' })).items).toEqual([]);
  });

  it('covers every search operation', () => {
    expectOperationsCovered(OPERATIONS);
  });
});
