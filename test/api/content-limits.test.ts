/**
 * A page body costs a bounded amount of work: past the content limits (src/content/limits.ts) a batch
 * edit is refused with the error envelope (413 for size, 400 for structure), never parsed at length
 * nor a 500, and both body formats (Markdown and the JSON document) are held to the same bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_LIMITS } from '../../src/content/limits.js';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';

let h: Harness;
let ctx: SpaceWorld;
let cr: string;
beforeAll(async () => {
  h = await createHarness();
  ctx = await h.space();
  cr = (await newChangeRequest(ctx)).id;
});
afterAll(async () => h.close());

const insert = (document: unknown) => batch(ctx, cr, [{ operation: 'insert_page', title: 'P', document }]);

/** Inserts a page whose JSON document is `json` as text (too deep for JSON.stringify to write). */
async function insertRaw(json: string) {
  const res = await h.app.inject({
    method: 'POST',
    url: `${ctx.base}/change-requests/${cr}/content`,
    headers: { authorization: `Bearer ${ctx.admin.token}`, 'content-type': 'application/json' },
    payload: `{"changes":[{"operation":"insert_page","title":"P","document":{"document":${json}}}]}`,
  });
  return { status: res.statusCode, body: res.json() as unknown };
}

function expectRefused(res: { status: number; body: unknown }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status);
  expect(res.body).toEqual({ error: { code: status, message: expect.stringContaining(message) } });
}

describe('Markdown bodies', () => {
  it('refuses 220 KB of unclosed {% tabs %} lines with 400 (a structure limit), not seconds of parsing', async () => {
    const markdown = '{% tabs %}\n'.repeat(20_000);
    expect(markdown.length).toBeGreaterThan(200_000);
    const res = await insert({ markdown });
    expectRefused(res, 400, 'body/changes/0/document/markdown: the Markdown has');
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await insert({ markdown: 'word '.repeat(CONTENT_LIMITS.markdownBytes / 5 + 1) });
    expectRefused(res, 413, `the limit is ${CONTENT_LIMITS.markdownBytes}`);
  });

  it('refuses nesting past the limit with 400: quotes, lists, tabs', async () => {
    for (const markdown of [
      `${'>'.repeat(20_000)} x`,
      `${'- '.repeat(5_000)}x`,
      `${'{% tabs %}\n{% tab title="t" %}\n'.repeat(100)}x\n${'{% endtab %}\n{% endtabs %}\n'.repeat(100)}`,
    ]) {
      expectRefused(await insert({ markdown }), 400, `deeper than ${CONTENT_LIMITS.nestingDepth} levels`);
    }
  });

  it('still takes unclosed tags as text and nested blocks within the limits', async () => {
    const markdown = `{% tabs %}\n\n> > - quoted\n\n{% tabs %}\n{% tab title="A" %}\n{% hint style="info" %}\nhi\n{% endhint %}\n{% endtab %}\n{% endtabs %}\n`;
    const res = await batch(
      ctx,
      cr,
      [{ operation: 'insert_page', title: 'Ok', document: { markdown } }],
      '?compat=false',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('JSON document bodies', () => {
  /** A document of blockquotes `depth` deep, as JSON text. */
  const nested = (depth: number) => {
    const open = '{"object":"block","type":"blockquote","nodes":['.repeat(depth);
    const inner = '{"object":"block","type":"paragraph","nodes":[]}';
    return `{"object":"document","data":{},"nodes":[${open}${inner}${']}'.repeat(depth)}]}`;
  };

  it('refuses blocks nested past the limit with 400, however deep', async () => {
    for (const depth of [CONTENT_LIMITS.nestingDepth + 1, 20_000]) {
      expectRefused(await insertRaw(nested(depth)), 400, 'body/changes/0/document/document:');
    }
  });

  it('refuses data nested past the JSON depth limit with 400', async () => {
    const data = `${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}`;
    const document = `{"object":"document","nodes":[{"object":"block","type":"paragraph","data":${data},"nodes":[]}]}`;
    expectRefused(await insertRaw(document), 400, 'objects and arrays');
  });

  it('refuses more blocks than the limit with 400', async () => {
    const nodes = Array.from({ length: CONTENT_LIMITS.blocks + 1 }, () => ({ object: 'block', type: 'divider' }));
    expectRefused(await insert({ document: { object: 'document', nodes } }), 400, 'blocks');
  });

  it('holds comment bodies given as JSON to the same bounds', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: `${ctx.base}/change-requests/${cr}/comments`,
      headers: { authorization: `Bearer ${ctx.admin.token}`, 'content-type': 'application/json' },
      payload: `{"body":{"document":${nested(20_000)}}}`,
    });
    expectRefused({ status: res.statusCode, body: res.json() }, 400, 'body/body/document: the document nests blocks');
  });

  it('accepts a document within the limits', async () => {
    const res = await insertRaw(nested(CONTENT_LIMITS.nestingDepth - 1));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  });
});
