/**
 * Contract test of the revision history: every revision operation of the official document driven
 * through the official `@gitbook/api` client, responses (and 404 errors) validated against the
 * official schemas, on a space with two merged change requests (pages created, edited, moved and
 * deleted; files; a reusable content).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from '../helpers/fixtures.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  validateAgainst,
  validateResponse,
} from './validate.js';

const REVISION_OPERATIONS = [
  'getRevisionById',
  'getRevisionSemanticChanges',
  'listPagesInRevisionById',
  'listFilesInRevisionById',
  'getFileInRevisionById',
  'getPageInRevisionById',
  'getPageDocumentInRevisionById',
  'getPageInRevisionByPath',
  'getReusableContentInRevisionById',
  'getReusableContentDocumentInRevisionById',
] as const;

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

describe('revision history through the official client', () => {
  it('reads past revisions, their content and their changes in the official shapes', async () => {
    const { id: orgId, admin } = await server.harness.org();
    const api = server.client(admin.token);
    const spaceId = (await api.orgs.createSpace(orgId, { title: 'History' })).data.id;

    const first = (await api.spaces.createChangeRequest(spaceId, { subject: 'First' })).data.id;
    const seeded = await api.spaces.updateChangeRequestContent(
      spaceId,
      first,
      {
        changes: [
          {
            operation: 'insert_page',
            ref: 'guide',
            title: 'Guide',
            document: { markdown: 'See [setup](./setup.md) and ![pixel](./pixel.png).' },
          },
          { operation: 'insert_page', ref: 'setup', title: 'Setup', document: { markdown: 'Install.' } },
          { operation: 'insert_page', title: 'Extra', document: { markdown: 'More.' } },
          {
            operation: 'insert_files',
            files: [{ ref: 'pixel.png', name: 'pixel.png', contentType: 'image/png', base64: PNG.toString('base64') }],
          },
          { operation: 'insert_reusable_content', title: 'Snippet', document: { markdown: 'Shared.' } },
        ],
      } as never,
      { compat: false },
    );
    const result = seeded.data as unknown as {
      changes: Array<{ page?: { id: string }; reusableContent?: string }>;
      insertedFiles: Array<{ id: string }>;
    };
    const [guide, setup, extra] = result.changes.slice(0, 3).map((c) => c.page!.id);
    const snippet = result.changes[3]!.reusableContent!;
    const pixel = result.insertedFiles[0]!.id;
    const r1 = (await api.spaces.mergeChangeRequest(spaceId, first)).data.revision;

    const second = (await api.spaces.createChangeRequest(spaceId, { subject: 'Second' })).data.id;
    await api.spaces.updateChangeRequestContent(spaceId, second, {
      changes: [
        { operation: 'update_page', page: extra!, into: guide! },
        { operation: 'delete_page', page: setup! },
        { operation: 'update_page', page: guide!, title: 'Guide v2' },
        {
          operation: 'update_page',
          page: extra!,
          document: { markdown: `Shared below.\n\n{% include "/reusable-contents/${snippet}" %}\n` },
        },
      ],
    });
    const r2 = (await api.spaces.mergeChangeRequest(spaceId, second)).data.revision;

    for (const revision of [r1, r2]) {
      await expectConforms('getRevisionById', api.spaces.getRevisionById(spaceId, revision), 200);
      await expectConforms('listPagesInRevisionById', api.spaces.listPagesInRevisionById(spaceId, revision), 200);
    }
    await expectConforms('getRevisionById', api.spaces.getRevisionById(spaceId, r1, { metadata: false }), 200);
    const created = await expectConforms(
      'getRevisionSemanticChanges',
      api.spaces.getRevisionSemanticChanges(spaceId, r1, { limit: 4 }),
      200,
    );
    expect(created.data.changes.map((c) => c.type)).toEqual([
      'page_created',
      'page_created',
      'page_created',
      'file_created',
    ]);
    expect(created.data.more).toBe(1);

    // The official `page_edited.attributes` is a oneOf of the document, group and link attribute
    // schemas, none of which forbids the others' fields: any attributes match all three, so no
    // page_edited can pass it (GitBook's own answers included). Each such change is checked against
    // the schema of its page's type instead, and the rest of the answer against the operation's.
    const changes = await api.spaces.getRevisionSemanticChanges(spaceId, r2);
    expect(changes.data.changes.map((c) => c.type)).toEqual([
      'page_edited',
      'page_moved',
      'page_edited',
      'page_deleted',
    ]);
    expect(changes.data.mergedFrom?.id).toBe(second);
    const all = changes.data.changes as unknown as Array<Record<string, unknown>>;
    const edits = all.filter((c) => c.type === 'page_edited');
    const rest = all.filter((c) => c.type !== 'page_edited');
    expect(edits).toMatchObject([
      { page: { id: guide, type: 'document' }, attributes: { title: { before: 'Guide', after: 'Guide v2' } } },
      { page: { id: extra, type: 'document' }, attributes: { document: { after: expect.any(String) } } },
    ]);
    for (const edited of edits) {
      expect(validateAgainst('#/components/schemas/ChangedRevisionPage', edited.page)).toEqual([]);
      expect(validateAgainst('#/components/schemas/RevisionPageDocumentChangeAttributes', edited.attributes)).toEqual(
        [],
      );
      expect(validateAgainst('#/components/schemas/RevisionSemanticChangePageEdited', edited)).toEqual([
        expect.stringContaining('must match exactly one schema in oneOf'),
      ]);
    }
    expect(validateResponse('getRevisionSemanticChanges', 200, { ...changes.data, changes: rest })).toEqual([]);

    const files = await expectConforms(
      'listFilesInRevisionById',
      api.spaces.listFilesInRevisionById(spaceId, r1, { limit: 1 }),
      200,
    );
    expect(files.data.items.map((f) => f.id)).toEqual([pixel]);
    await expectConforms('getFileInRevisionById', api.spaces.getFileInRevisionById(spaceId, r1, pixel!), 200);
    const page = await expectConforms(
      'getPageInRevisionById',
      api.spaces.getPageInRevisionById(spaceId, r1, guide!, { format: 'markdown' }),
      200,
    );
    expect((page.data as { markdown?: string }).markdown).toContain('](setup.md)');
    await expectConforms('getPageInRevisionById', api.spaces.getPageInRevisionById(spaceId, r2, guide!), 200);
    const document = await expectConforms(
      'getPageDocumentInRevisionById',
      api.spaces.getPageDocumentInRevisionById(spaceId, r1, setup!),
      200,
    );
    expect(JSON.stringify(document.data)).toContain('Install.');
    // A page including a reusable content: the official reusable-content block.
    const including = await expectConforms(
      'getPageDocumentInRevisionById',
      api.spaces.getPageDocumentInRevisionById(spaceId, r2, extra!),
      200,
    );
    expect(including.data.nodes[1]).toEqual({
      object: 'block',
      type: 'reusable-content',
      isVoid: true,
      data: { ref: { kind: 'reusable-content', reusableContent: snippet } },
    });
    await expectConforms('getPageInRevisionByPath', api.spaces.getPageInRevisionByPath(spaceId, r1, 'setup'), 200);
    await expectConforms(
      'getReusableContentInRevisionById',
      api.spaces.getReusableContentInRevisionById(spaceId, r1, snippet!),
      200,
    );
    await expectConforms(
      'getReusableContentDocumentInRevisionById',
      api.spaces.getReusableContentDocumentInRevisionById(spaceId, r1, snippet!),
      200,
    );

    await expectApiError('getRevisionById', api.spaces.getRevisionById(spaceId, 'missing'), 404);
    await expectApiError('getPageInRevisionById', api.spaces.getPageInRevisionById(spaceId, r2, setup!), 404);
    await expectApiError('getPageInRevisionByPath', api.spaces.getPageInRevisionByPath(spaceId, r2, 'setup'), 404);
    await expectApiError('getFileInRevisionById', api.spaces.getFileInRevisionById(spaceId, r1, 'missing'), 404);
    const outsider = server.client((await server.harness.user()).token);
    await expectApiError('getRevisionSemanticChanges', outsider.spaces.getRevisionSemanticChanges(spaceId, r1), 404);
  });

  it('covers every revision operation', () => {
    expectOperationsCovered(REVISION_OPERATIONS);
  });
});
