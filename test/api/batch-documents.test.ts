/**
 * Page bodies given as JSON documents pass through the editor's Document model
 * (src/document-model) besides the content limits: a document of the official format is stored as
 * sent, blocks the editor does not know included; one the editor could not hold is refused with 400
 * naming the change and the path inside the document, for every operation that takes a document.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';
import { documentArbitrary } from '../helpers/document-arbitraries.js';

let h: Harness;
let ctx: SpaceWorld;
let cr: string;
beforeAll(async () => {
  h = await createHarness();
  ctx = await h.space();
  cr = (await newChangeRequest(ctx)).id;
});
afterAll(async () => h.close());

const text = (value: unknown) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });

async function readBack(page: string): Promise<unknown> {
  const res = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr}/content/page/${page}`);
  expect(res.status).toBe(200);
  return res.body.document;
}

function expectRefused(res: { status: number; body: unknown }, message: string) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
  expect(res.body).toEqual({ error: { code: 400, message } });
}

describe('JSON document bodies and the editor model', () => {
  it('stores documents of the official format as sent, unknown blocks included', async () => {
    const documents: Array<Record<string, unknown>> = [
      // An empty body is stored as none (read back as the empty document): samples with blocks.
      ...(fc.sample(
        documentArbitrary.filter((d) => (d as { nodes: unknown[] }).nodes.length > 0),
        { seed: 34, numRuns: 4 },
      ) as Array<Record<string, unknown>>),
      doc({ object: 'block', type: 'future-block', key: 'k', data: { x: [1] }, nodes: [paragraph(text('kept'))] }),
      // A table the editor edits cell by cell: a text, a number, a users and a hidden column.
      doc({
        object: 'block',
        type: 'table',
        isVoid: true,
        data: {
          view: { type: 'grid', columns: ['n', 'q', 'u'], hideHeader: false, columnWidths: { n: 40 } },
          records: {
            b: { orderIndex: 'a1', values: { n: 'b-n', q: 2, u: ['u1'], h: true } },
            a: { orderIndex: 'a0', values: { n: 'a-n', q: 1.5, u: [] } },
          },
          definition: {
            n: { id: 'n', title: 'Name', type: 'text', textAlignment: 'left' },
            q: { id: 'q', title: 'Qty', type: 'number' },
            u: { id: 'u', title: 'Owner', type: 'users', multiple: false },
            h: { id: 'h', title: 'Hidden', type: 'checkbox' },
          },
        },
        fragments: [
          { object: 'fragment', fragment: 'b-n', nodes: [paragraph(text('Bolt'))] },
          { object: 'fragment', fragment: 'a-n', nodes: [paragraph(text('Anchor'))] },
        ],
      }),
    ];
    const res = await batch(
      ctx,
      cr,
      documents.map((document, i) => ({ operation: 'insert_page', title: `Doc ${i}`, document: { document } })),
      '?compat=false',
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const pages = res.body.changes.map((change: { page: { id: string } }) => change.page.id);
    for (const [i, document] of documents.entries()) {
      const read = await readBack(pages[i]);
      expect(read).toStrictEqual(document);
      // Byte for byte: the properties in the order they were sent.
      expect(JSON.stringify(read)).toBe(JSON.stringify(document));
    }
  });

  it('refuses objects lacking what the official format requires of them, naming the property', async () => {
    const heading = (extra: object) => ({ object: 'block', type: 'heading-2', nodes: [text('Title')], ...extra });
    const cases: Array<[unknown, string]> = [
      [doc(heading({})), 'nodes/0/data: is required (a "heading-2" block)'],
      [
        doc(paragraph(text('ok')), { object: 'block', type: 'hint', data: {}, nodes: [paragraph(text('x'))] }),
        'nodes/1/data/style: is required (a "hint" block)',
      ],
      [
        doc(paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 'no marks' }] })),
        'nodes/0/nodes/0/leaves/0/marks: is required (a leaf)',
      ],
      [doc({ object: 'block', type: 'divider', data: {} }), 'nodes/0/isVoid: is required (a "divider" block)'],
      [
        doc({
          object: 'block',
          type: 'images',
          isVoid: false,
          data: {},
          nodes: [
            { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x/y.png' } } },
          ],
        }),
        'nodes/0/nodes/0/fragments: is required (a "image" block)',
      ],
      [
        doc(paragraph({ object: 'inline', type: 'link', data: {}, nodes: [text('here')] })),
        'nodes/0/nodes/0/data/ref: is required (a "link" inline)',
      ],
    ];
    for (const [document, message] of cases) {
      expectRefused(
        await batch(ctx, cr, [{ operation: 'insert_page', title: 'Bad', document: { document } }]),
        `body/changes/0/document/document: ${message}`,
      );
    }
    // With what it requires, the heading is stored.
    const ok = await batch(ctx, cr, [
      { operation: 'insert_page', title: 'Good', document: { document: doc(heading({ data: {} })) } },
    ]);
    expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
  });

  it('refuses a document the editor cannot hold, naming the change and the path', async () => {
    const badLeaf = doc(paragraph(text('fine')), paragraph(text(42)));
    expectRefused(
      await batch(ctx, cr, [
        { operation: 'insert_page', title: 'Ok', document: { markdown: 'fine' } },
        { operation: 'insert_page', title: 'Bad', document: { document: badLeaf } },
      ]),
      'body/changes/1/document/document: nodes/1/nodes/0/leaves/0/text: must be a string',
    );
    const blockInLink = doc(paragraph({ object: 'inline', type: 'link', data: {}, nodes: [paragraph()] }));
    expectRefused(
      await batch(ctx, cr, [{ operation: 'insert_page', title: 'Bad', document: { document: blockInLink } }]),
      'body/changes/0/document/document: nodes/0/nodes/0/nodes/0: must be a text or an inline (an inline holds no blocks)',
    );
  });

  it('checks updated pages and reusable contents the same way', async () => {
    const inserted = await batch(
      ctx,
      cr,
      [{ operation: 'insert_page', title: 'Target', document: { markdown: 'x' } }],
      '?compat=false',
    );
    const page = inserted.body.changes[0].page.id;
    const badMark = doc(
      paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 'a', marks: [{ type: 'bold' }] }] }),
    );
    expectRefused(
      await batch(ctx, cr, [{ operation: 'update_page', page, document: { document: badMark } }]),
      'body/changes/0/document/document: nodes/0/nodes/0/leaves/0/marks/0: must be a mark (object "mark")',
    );
    expectRefused(
      await batch(ctx, cr, [
        {
          operation: 'insert_reusable_content',
          title: 'R',
          document: { document: doc({ object: 'block', type: 'hint', data: 'info', nodes: [] }) },
        },
      ]),
      'body/changes/0/document/document: nodes/0/data: must be an object',
    );
    // Nothing of the refused batches was applied.
    expect(await readBack(page)).toEqual(doc(paragraph(text('x'))));
  });
});
