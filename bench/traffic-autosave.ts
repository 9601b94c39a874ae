/**
 * Autosave (issue #35): the web app's editor saves about once a second, each time a batch edit of
 * one page in a change request (`POST …/change-requests/{crId}/content?compat=false` with `If-Match`,
 * one `update_page` carrying the page's whole JSON document: app/src/features/editor/PageEditor.tsx).
 *
 * On a fresh database, through the API: a space of {@link SMALL} pages and one of {@link LARGE}
 * (flat: every page at the top of the tree, ~300 words each), merged, and an open change request
 * in each. Then, for each space, a few untimed saves, then BENCH_AUTOSAVES saves one after the other,
 * each timed from this process (p50 against {@link P50_GOAL_MS} ms at {@link SMALL} pages), and
 * what they added to the database: rows and bytes per table, read before and after (SQLite: the
 * record bytes of each table's b-tree, from `dbstat`; PostgreSQL: `pg_column_size` of each row; indexes
 * not counted on either). The goal: what an autosave stores grows with the edited page, not with the
 * space, so the bytes per save at {@link LARGE} pages over those at {@link SMALL} should be about 1.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { isPostgresUrl } from '../src/db/database.js';
import { MARKER, pageMarkdown } from './mixed-seed.js';
import { processTree, startBindery } from './processes.js';
import { Api, bootstrap } from './seed.js';
import { AUTOSAVES, ROOT } from './settings.js';
import { log } from './util.js';

export const SMALL = 200;
export const LARGE = 2000;
export const P50_GOAL_MS = 15;
/** Where a revision is stored (src/content/store.ts): its row, its new page versions, its new bodies. */
export const REVISION_TABLES = ['revisions', 'page_versions', 'content_documents', 'content_lists'];
const WARM_UP_SAVES = 5;

export type TableSizes = Map<string, { rows: number; bytes: number }>;

export interface AutosaveSize {
  pages: number;
  saves: number;
  p50: number;
  p95: number;
  /** Server CPU per save, µs. */
  cpuPerSave: number;
  /** Bytes of the JSON body each save sends. */
  requestBytes: number;
  /** Per save: rows and bytes added to each table that grew. */
  perSave: TableSizes;
}

export interface AutosaveResult {
  label: string;
  sizes: AutosaveSize[];
}

/** Rows and record bytes of every table of the database. */
export async function tableSizes(databaseUrl: string): Promise<TableSizes> {
  const sizes: TableSizes = new Map();
  if (isPostgresUrl(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
      );
      for (const { name } of tables.rows) {
        const { rows } = await client.query<{ rows: string; bytes: string }>(
          `select count(*) as rows, coalesce(sum(pg_column_size(t.*)), 0) as bytes from "${name}" t`,
        );
        sizes.set(name, { rows: Number(rows[0]?.rows), bytes: Number(rows[0]?.bytes) });
      }
    } finally {
      await client.end();
    }
    return sizes;
  }
  const db = new Database(databaseUrl.replace(/^sqlite:/, ''), { readonly: true });
  try {
    const payload = new Map(
      db
        .prepare('select name, sum(payload) as bytes from dbstat group by name')
        .all()
        .map((r: any) => [r.name as string, Number(r.bytes)]),
    );
    const tables = db.prepare("select name from sqlite_schema where type = 'table' order by name").all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      const rows = (db.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n;
      sizes.set(name, { rows, bytes: payload.get(name) ?? 0 });
    }
  } finally {
    db.close();
  }
  return sizes;
}

function growth(before: TableSizes, after: TableSizes, saves: number): TableSizes {
  const grown: TableSizes = new Map();
  for (const [name, a] of after) {
    const b = before.get(name) ?? { rows: 0, bytes: 0 };
    if (a.rows === b.rows && a.bytes === b.bytes) continue;
    grown.set(name, { rows: (a.rows - b.rows) / saves, bytes: (a.bytes - b.bytes) / saves });
  }
  return grown;
}

/** A merged space of `pages` pages and an open change request; the page the saves edit and its document. */
async function seedSpace(api: Api, organizationId: string, pages: number) {
  const space = await api.call('POST', `/orgs/${organizationId}/spaces`, { title: `Autosave ${pages} pages` });
  const base = `/spaces/${space.id}/change-requests`;
  const first = await api.call('POST', base, { subject: 'Pages' });
  let pageId = '';
  for (let from = 0; from < pages; from += 50) {
    const changes = Array.from({ length: Math.min(50, pages - from) }, (_, k) => ({
      operation: 'insert_page',
      title: `Page ${from + k}`,
      document: { markdown: pageMarkdown(`Page ${from + k}`) },
    }));
    const written = await api.call('POST', `${base}/${first.id}/content?compat=false`, { changes });
    pageId ||= (written.changes as { object: string; page: { id: string } }[]).find((c) => c.object === 'created_page')
      ?.page.id as string;
  }
  await api.call('POST', `${base}/${first.id}/merge`, {});
  const cr = await api.call('POST', base, { subject: 'Draft' });
  const page = await api.call('GET', `${base}/${cr.id}/content/page/${pageId}`);
  return { spaceId: space.id, crId: cr.id as string, revision: cr.revision as string, pageId, document: page.document };
}

export async function benchAutosave(label: string, databaseUrl: string): Promise<AutosaveResult> {
  log(`\n[${label} autosave] seeding ${SMALL} and ${LARGE} pages through the API`);
  const ids = bootstrap(ROOT, databaseUrl);
  const server = await startBindery(databaseUrl);
  try {
    const api = new Api(server.baseUrl, ids.token);
    const spaces = [];
    for (const pages of [SMALL, LARGE]) spaces.push({ pages, ...(await seedSpace(api, ids.organizationId, pages)) });
    const sizes: AutosaveSize[] = [];
    for (const s of spaces) {
      log(`[${label} autosave] ${AUTOSAVES} saves in the space of ${s.pages} pages`);
      const template = JSON.stringify(s.document);
      if (!template.includes(MARKER)) throw new Error('the page lost its marker paragraph');
      let revision = s.revision;
      let bodyBytes = 0;
      const save = async (n: number): Promise<number> => {
        const document = template.replace(MARKER, `autosave ${label} ${s.pages} ${n}`);
        const body = `{"changes":[{"operation":"update_page","page":"${s.pageId}","document":{"document":${document}}}]}`;
        bodyBytes = Buffer.byteLength(body);
        const started = performance.now();
        const response = await fetch(
          `${server.baseUrl}/v1/spaces/${s.spaceId}/change-requests/${s.crId}/content?compat=false`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${ids.token}`,
              'content-type': 'application/json',
              'if-match': `"${revision}"`,
            },
            body,
          },
        );
        const answer = (await response.json()) as { changeRequest?: { revision: string } };
        const ms = performance.now() - started;
        if (response.status !== 200 || !answer.changeRequest) {
          throw new Error(`autosave answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
        }
        revision = answer.changeRequest.revision;
        return ms;
      };
      for (let n = 0; n < WARM_UP_SAVES; n++) await save(-1 - n);
      const before = await tableSizes(databaseUrl);
      const cpuBefore = processTree(server.pid).cpuMicros;
      const samples: number[] = [];
      for (let n = 0; n < AUTOSAVES; n++) samples.push(await save(n));
      const cpu = processTree(server.pid).cpuMicros - cpuBefore;
      const after = await tableSizes(databaseUrl);
      samples.sort((a, b) => a - b);
      const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] as number;
      sizes.push({
        pages: s.pages,
        saves: AUTOSAVES,
        p50: at(0.5),
        p95: at(0.95),
        cpuPerSave: cpu / AUTOSAVES,
        requestBytes: bodyBytes,
        perSave: growth(before, after, AUTOSAVES),
      });
    }
    return { label, sizes };
  } finally {
    await server.stop();
  }
}

/** Bytes (and rows) per save in `tables` (all tables when not given). */
export function stored(size: AutosaveSize, tables?: string[]): { rows: number; bytes: number } {
  let rows = 0;
  let bytes = 0;
  for (const [name, g] of size.perSave) {
    if (tables && !tables.includes(name)) continue;
    rows += g.rows;
    bytes += g.bytes;
  }
  return { rows, bytes };
}
