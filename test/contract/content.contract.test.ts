/**
 * Contract test of change requests and content: every operation the official document has is
 * driven through the official `@gitbook/api` client and its response validated against the
 * official schema. The operations the official document no longer lists (imports, links,
 * backlinks) are called directly and their items validated against the official component schemas
 * (`RevisionPage`, `ContentRef`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { GitBookAPI } from './official.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  assertRequestConforms,
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  validateAgainst,
} from './validate.js';

const CONTENT_OPERATIONS = [
  'createChangeRequest',
  'listChangeRequestsForSpace',
  'getChangeRequestById',
  'updateChangeRequestById',
  'mergeChangeRequest',
  'updateChangeRequestContent',
  'getRequestedReviewersByChangeRequestId',
  'requestReviewersForChangeRequest',
  'removeRequestedReviewerFromChangeRequest',
  'getRevisionOfChangeRequestById',
  'listPagesInChangeRequest',
  'listFilesInChangeRequestById',
  'getFileInChangeRequestById',
  'getPageInChangeRequestById',
  'getPageInChangeRequestByPath',
  'getCurrentRevision',
  'listPages',
  'listFiles',
  'getFileById',
  'getPageById',
  'getPageByPath',
] as const;

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

interface Space {
  orgId: string;
  spaceId: string;
  admin: TestUser;
  api: GitBookAPI;
}

async function newSpace(): Promise<Space> {
  const { id, admin } = await server.harness.org();
  const api = server.client(admin.token);
  const space = await api.orgs.createSpace(id, { title: 'Contract' });
  return { orgId: id, spaceId: space.data.id, admin, api };
}

const MARKDOWN = [
  '# Heading',
  '',
  'Text with **bold**, *italic*, `code`, ~~strike~~ and a [link](https://example.com).',
  '',
  '- one',
  '- [two](#heading)',
  '',
  '1. first',
  '',
  '- [x] done',
  '',
  '```js',
  'let a = 1;',
  '```',
  '',
  '> quoted',
  '',
  '{% hint style="success" %}',
  'A hint',
  '{% endhint %}',
  '',
  '| A | B |',
  '| - | - |',
  '| 1 | 2 |',
  '',
  '![image](https://example.com/a.png "caption")',
  '',
  '---',
].join('\n');

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGP4z8DwHwyBNAMDAFXTBfuqUCJSAAAAAElFTkSuQmCC';

describe('change requests and content through the official client', () => {
  it('creates, edits, reads and merges a change request', async () => {
    const { spaceId, api, admin } = await newSpace();
    const created = await expectConforms(
      'createChangeRequest',
      api.spaces.createChangeRequest(spaceId, { subject: 'Contract edits' }),
      201,
    );
    const cr = created.data.id;
    await expectConforms('listChangeRequestsForSpace', api.spaces.listChangeRequestsForSpace(spaceId, {}), 200);
    await expectConforms(
      'getChangeRequestById',
      api.spaces.getChangeRequestById(spaceId, String(created.data.number)),
      200,
    );
    await expectApiError('getChangeRequestById', api.spaces.getChangeRequestById(spaceId, 'missing'), 404);
    await expectConforms(
      'updateChangeRequestById',
      api.spaces.updateChangeRequestById(spaceId, cr, { subject: 'Renamed' }),
      200,
    );

    const changes = {
      changes: [
        {
          operation: 'insert_page' as const,
          title: 'Guide',
          ref: 'guide',
          // Adaptive content: read back on the page, as the official RevisionPage has it.
          condition: 'visitor.claims.plan === "pro"',
          document: { markdown: MARKDOWN },
        },
        {
          operation: 'insert_page' as const,
          title: 'Child',
          document: { markdown: 'See [guide](./guide.md) and ![pixel](./pixel.png).' },
        },
        {
          operation: 'insert_files' as const,
          files: [{ ref: 'pixel.png', name: 'pixel.png', contentType: 'image/png', base64: PNG }],
        },
      ],
    };
    assertRequestConforms('updateChangeRequestContent', changes);
    const edited = await expectConforms(
      'updateChangeRequestContent',
      api.spaces.updateChangeRequestContent(spaceId, cr, changes, { compat: false }),
      200,
    );
    const update = edited.data as { changes: Array<{ page: { id: string } }>; insertedFiles: Array<{ id: string }> };
    const guideId = update.changes[0]!.page.id;
    const childId = update.changes[1]!.page.id;
    const fileId = update.insertedFiles[0]!.id;
    const compat = { changes: [{ operation: 'update_page' as const, page: childId, into: guideId }] };
    assertRequestConforms('updateChangeRequestContent', compat);
    await expectConforms('updateChangeRequestContent', api.spaces.updateChangeRequestContent(spaceId, cr, compat), 200);

    await expectConforms(
      'getRevisionOfChangeRequestById',
      api.spaces.getRevisionOfChangeRequestById(spaceId, cr, {}),
      200,
    );
    await expectConforms(
      'getRevisionOfChangeRequestById',
      api.spaces.getRevisionOfChangeRequestById(spaceId, cr, { metadata: false }),
      200,
    );
    await expectConforms('listPagesInChangeRequest', api.spaces.listPagesInChangeRequest(spaceId, cr, {}), 200);
    await expectConforms('listFilesInChangeRequestById', api.spaces.listFilesInChangeRequestById(spaceId, cr, {}), 200);
    await expectConforms(
      'getFileInChangeRequestById',
      api.spaces.getFileInChangeRequestById(spaceId, cr, fileId, {}),
      200,
    );
    const page = await expectConforms(
      'getPageInChangeRequestById',
      api.spaces.getPageInChangeRequestById(spaceId, cr, guideId, {}),
      200,
    );
    expect((page.data as { document: { nodes: unknown[] } }).document.nodes.length).toBeGreaterThan(8);
    expect((page.data as { condition?: string }).condition).toBe('visitor.claims.plan === "pro"');
    const md = await expectConforms(
      'getPageInChangeRequestById',
      api.spaces.getPageInChangeRequestById(spaceId, cr, guideId, { format: 'markdown' }),
      200,
    );
    expect((md.data as { markdown: string }).markdown).toContain('{% hint style="success" %}');
    await expectConforms(
      'getPageInChangeRequestByPath',
      api.spaces.getPageInChangeRequestByPath(spaceId, cr, 'guide', {}),
      200,
    );
    // Nested paths (`guide/child`) are covered by the HTTP tests: validate.ts matches one segment per parameter.

    // The operations the official document does not list: validate their items against its components.
    const base = `${server.endpoint}/v1/spaces/${spaceId}/change-requests/${cr}/content`;
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${admin.token}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { items: unknown[]; stats?: unknown };
    };
    const links = await get(`/page/${childId}/links`);
    expect(links.stats).toEqual({ total: 2, broken: { total: 0, changeRequest: 0 } });
    for (const item of links.items)
      expect(validateAgainst('#/components/schemas/ContentRef', (item as { target: unknown }).target)).toEqual([]);
    for (const path of [`/page/${guideId}/backlinks`, `/files/${fileId}/backlinks`]) {
      const list = await get(path);
      expect(list.items).toHaveLength(1);
      for (const item of list.items) expect(validateAgainst('#/components/schemas/RevisionPage', item)).toEqual([]);
    }

    await expectConforms('mergeChangeRequest', api.spaces.mergeChangeRequest(spaceId, cr), 200);
    await expectConforms('getCurrentRevision', api.spaces.getCurrentRevision(spaceId, {}), 200);
    await expectConforms('listPages', api.spaces.listPages(spaceId, {}), 200);
    await expectConforms('listFiles', api.spaces.listFiles(spaceId, {}), 200);
    await expectConforms('getFileById', api.spaces.getFileById(spaceId, fileId, {}), 200);
    await expectConforms('getPageById', api.spaces.getPageById(spaceId, guideId, { format: 'markdown' }), 200);
    await expectConforms('getPageByPath', api.spaces.getPageByPath(spaceId, 'guide', {}), 200);
  });

  it('requests and removes reviewers; conflicts are errors of the official shape', async () => {
    const { orgId, spaceId, api } = await newSpace();
    const reviewer = await server.harness.member(orgId, 'review');
    const created = await api.spaces.createChangeRequest(spaceId, { subject: 'Review me' });
    const cr = created.data.id;
    await expectConforms(
      'requestReviewersForChangeRequest',
      api.spaces.requestReviewersForChangeRequest(spaceId, cr, { users: [reviewer.user.id], subject: 'Please' }),
      200,
    );
    await expectConforms(
      'getRequestedReviewersByChangeRequestId',
      api.spaces.getRequestedReviewersByChangeRequestId(spaceId, cr, {}),
      200,
    );
    await expectConforms(
      'removeRequestedReviewerFromChangeRequest',
      api.spaces.removeRequestedReviewerFromChangeRequest(spaceId, cr, reviewer.user.id),
      204,
    );

    const seed = await api.spaces.updateChangeRequestContent(
      spaceId,
      cr,
      { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown: 'v1' } }] },
      { compat: false },
    );
    const pageId = (seed.data as { changes: Array<{ page: { id: string } }> }).changes[0]!.page.id;
    await api.spaces.mergeChangeRequest(spaceId, cr);
    const a = (await api.spaces.createChangeRequest(spaceId, { subject: 'A' })).data.id;
    const b = (await api.spaces.createChangeRequest(spaceId, { subject: 'B' })).data.id;
    for (const [id, text] of [
      [a, 'from A'],
      [b, 'from B'],
    ] as const) {
      await api.spaces.updateChangeRequestContent(spaceId, id, {
        changes: [{ operation: 'update_page', page: pageId, document: { markdown: text } }],
      });
    }
    await expectConforms('mergeChangeRequest', api.spaces.mergeChangeRequest(spaceId, a), 200);
    const { body } = await expectApiError('mergeChangeRequest', api.spaces.mergeChangeRequest(spaceId, b), 409);
    expect(JSON.stringify(body)).toContain(pageId);
  });

  it('covers every operation of the area', () => {
    expectOperationsCovered(CONTENT_OPERATIONS);
  });
});
