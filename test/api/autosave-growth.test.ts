/**
 * What an autosave stores grows with the edited page, not with the space: the web app's editor
 * sends a batch edit of one page about once a second, and each writes a revision. After the same
 * autosaves in a change request of 200 pages and in one of 2,000, the rows and bytes each added are
 * of the same order (a revision that repeated the space's page list added ten times more in the
 * larger one; the lists are now chunks, so only a logarithmic part grows). Structural, no timing:
 * measured on a database of this test's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { readStorage } from '../helpers/storage-size.js';

let h: Harness;
let database: FreshDatabase;
beforeAll(async () => {
  database = await freshDatabase('autosave');
  h = await createHarness({ ownDatabase: database.url });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await database?.drop();
});

const PAGES_EDITED = 4;
/** A page of a few paragraphs, as people write them (the edited page's own size is part of the figure). */
const body = (label: string) =>
  `${label}\n\n${Array.from({ length: 200 }, (_, i) => `word${(i * 7) % 101}`).join(' ')}\n`;
const AUTOSAVES_PER_PAGE = 5;

/** Rows and bytes one autosave added, on average, in a change request of `pages` top-level pages. */
async function perAutosave(pages: number) {
  const ctx = await h.space(`Space of ${pages}`);
  const cr = await newChangeRequest(ctx);
  for (let from = 0; from < pages; from += 50) {
    const changes = Array.from({ length: Math.min(50, pages - from) }, (_, k) => ({
      operation: 'insert_page',
      title: `Page ${from + k}`,
      document: { markdown: `Text of page ${from + k}.` },
    }));
    const res = await batch(ctx, cr.id, changes);
    expect(res.status).toBe(200);
  }
  const listed = (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content`)).body.pages as {
    id: string;
  }[];
  expect(listed).toHaveLength(pages);
  // Pages spread over the list, so that no one chunk of it decides the figure.
  const edited = Array.from({ length: PAGES_EDITED }, (_, i) => listed[Math.floor(((i + 0.5) * pages) / PAGES_EDITED)]);
  let revision = (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}`)).body.revision as string;
  const before = await readStorage(h.db, database.postgres);
  for (let round = 0; round < AUTOSAVES_PER_PAGE; round++) {
    for (const page of edited) {
      const res = await ctx.admin.client.request(
        'POST',
        `${ctx.base}/change-requests/${cr.id}/content`,
        {
          changes: [{ operation: 'update_page', page: page?.id, document: { markdown: body(`Draft ${round}.`) } }],
        },
        { 'if-match': `"${revision}"` },
      );
      expect(res.status).toBe(200);
      revision = res.body.revision;
    }
  }
  const after = await readStorage(h.db, database.postgres);
  const autosaves = PAGES_EDITED * AUTOSAVES_PER_PAGE;
  return { rows: (after.rows - before.rows) / autosaves, bytes: (after.bytes - before.bytes) / autosaves };
}

describe('an autosave in a change request', () => {
  it('stores about as much in a space of 2,000 pages as in one of 200', async () => {
    const small = await perAutosave(200);
    const large = await perAutosave(2000);
    expect(small.bytes).toBeGreaterThan(0);
    expect(large.rows).toBeLessThanOrEqual(small.rows * 1.5);
    expect(large.bytes, JSON.stringify({ small, large })).toBeLessThanOrEqual(small.bytes * 1.5);
  }, 240_000);
});
