/**
 * Long lists of a revision stored as content-addressed chunks (`content_lists`,
 * src/content/chunked-list.ts): a revision used to repeat its whole top-level page list, files and
 * reusable contents, so every autosave in a space of 2,000 top-level pages wrote ~130 KB.
 *
 * Existing revisions are converted: each list longer than 32 items becomes `{ "list": <hash> }`
 * over chunks shared between revisions. Page versions are left as they are: a page's children
 * stored inline stay readable, and are chunked the next time one of them changes. The chunking
 * rules are copied here (not imported) so that this migration keeps doing what it did; they are
 * the same as the application's, so the first revision written after it shares these chunks.
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

const INLINE_MAX = 32;
const BOUNDARY = 8;
const MAX_CHUNK = 32;
const BATCH = 200;

type Node = { items: unknown[] } | { lists: string[] };

function scatter(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function chunk<T extends { key: string }>(entries: T[], level: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  for (const entry of entries) {
    current.push(entry);
    if (current.length >= MAX_CHUNK || scatter(`${level}:${entry.key}`) % BOUNDARY === 0) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

function bySize<T>(entries: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < entries.length; i += MAX_CHUNK) out.push(entries.slice(i, i + MAX_CHUNK));
  return out;
}

function encode(items: unknown[], keys: string[], nodes: Map<string, string>): unknown {
  if (items.length <= INLINE_MAX) return items;
  const store = (node: Node) => {
    const text = JSON.stringify(node);
    const hash = createHash('sha256').update(text).digest('hex');
    nodes.set(hash, text);
    return hash;
  };
  let level = 0;
  let level0 = chunk(
    items.map((item, i) => ({ item, key: keys[i] as string })),
    level,
  ).map((part) => ({ hash: store({ items: part.map((e) => e.item) }), key: (part.at(-1) as { key: string }).key }));
  while (level0.length > 1) {
    level++;
    let parts = chunk(level0, level);
    if (parts.length === level0.length) parts = bySize(level0);
    level0 = parts.map((part) => ({
      hash: store({ lists: part.map((n) => n.hash) }),
      key: (part.at(-1) as { key: string }).key,
    }));
  }
  return { list: (level0[0] as { hash: string }).hash };
}

interface RevisionRow {
  id: string;
  pages: string;
  files: string;
  reusable_contents: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_lists')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  const now = new Date().toISOString();
  let after = '';
  for (;;) {
    const rows = (
      await sql<RevisionRow>`
        select id, pages, files, reusable_contents from revisions where id > ${after} order by id limit ${BATCH}`.execute(
        db,
      )
    ).rows;
    if (rows.length === 0) break;
    after = (rows.at(-1) as RevisionRow).id;
    for (const row of rows) {
      const pages = JSON.parse(row.pages) as unknown;
      const files = JSON.parse(row.files) as unknown;
      const reusable = JSON.parse(row.reusable_contents) as unknown;
      const long = (list: unknown): list is unknown[] => Array.isArray(list) && list.length > INLINE_MAX;
      if (!long(pages) && !long(files) && !long(reusable)) continue;
      const nodes = new Map<string, string>();
      const set: Record<string, string> = {};
      if (long(pages)) {
        // Top-level pages are keyed by their page ids, which their versions hold.
        const ids = new Map<string, string>();
        const hashes = pages as string[];
        for (let i = 0; i < hashes.length; i += 500) {
          const part = hashes.slice(i, i + 500);
          const found = await sql<{ hash: string; page_id: string }>`
            select hash, page_id from page_versions where hash in (${sql.join(part)})`.execute(db);
          for (const r of found.rows) ids.set(r.hash, r.page_id);
        }
        set.pages = JSON.stringify(
          encode(
            hashes,
            hashes.map((h) => ids.get(h) ?? h),
            nodes,
          ),
        );
      }
      const byId = (list: unknown[]) => list.map((entry) => String((entry as { id: string }).id));
      if (long(files)) set.files = JSON.stringify(encode(files, byId(files), nodes));
      if (long(reusable)) set.reusable_contents = JSON.stringify(encode(reusable, byId(reusable), nodes));
      for (const [hash, data] of nodes) {
        await sql`
          insert into content_lists (hash, data, created_at) values (${hash}, ${data}, ${now})
          on conflict (hash) do nothing`.execute(db);
      }
      await sql`
        update revisions set
          pages = ${set.pages ?? row.pages},
          files = ${set.files ?? row.files},
          reusable_contents = ${set.reusable_contents ?? row.reusable_contents}
        where id = ${row.id}`.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  // Chunked lists cannot be read by the code before this migration; there is no going back.
  throw new Error('0033_autosave_content_lists cannot be undone');
}
