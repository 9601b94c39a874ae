/**
 * Autosave: what the web app's editor sends about once a second while someone types — a batch edit
 * of one page's body in a change request, with `If-Match` on the change request's revision
 * (app/src/features/editor/save-queue.ts) — timed one after the other in a change request of
 * `pages` pages (all at the top level: the widest tree a revision can have).
 *
 * {@link benchAutosave} runs against any Bindery at `baseUrl` with an admin token of an
 * organization: it makes its own space (pages written by a change request and merged), opens a
 * change request, and times `edits` autosaves of one page. Given `storage` (a reading of the
 * database), it also reports the rows and bytes each autosave added.
 *
 * `npm run bench:autosave` (or `tsx bench/autosave.ts`) runs it at 200 and 2,000 pages on a fresh
 * SQLite file, and on a fresh PostgreSQL database too when DATABASE_URL is a postgres:// URL, with
 * the server in this process (response cache on, as in production). BENCH_AUTOSAVES sets the
 * number of timed autosaves (default 100), BENCH_AUTOSAVE_PAGES the sizes (default "200,2000").
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createOrganization } from '../src/api/organizations/repo.js';
import { findOrCreateUser } from '../src/api/users/repo.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createToken } from '../src/core/tokens.js';
import { createDb, type Db, isPostgresUrl } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { newId } from '../src/lib/ids.js';
import { latencySummary, onEachDatabase, percentile } from './corpus.js';
import { Api } from './seed.js';

/** The ceiling of the goal (issue #35): p50 of one autosave at 200 pages. */
export const AUTOSAVE_P50_CEILING_MS = 15;
const BATCH = 50; // MAX_BATCH_CHANGES

/** Rows and bytes the database holds (what an autosave adds is the difference). */
export interface StorageReading {
  rows: number;
  bytes: number;
}

export interface AutosaveResult {
  pages: number;
  samples: number[];
  p50: number;
  p95: number;
  /** Per autosave, when `storage` was given. */
  rowsPerEdit?: number;
  bytesPerEdit?: number;
}

const pageMarkdown = (n: number, words = 120) =>
  `Page ${n} explains one part of the product.\n\n${Array.from({ length: words }, (_, i) => `word${(n + i) % 97}`).join(' ')}\n`;

/**
 * Times `edits` autosaves of one page in a change request of `pages` pages, made in a new space of
 * `organizationId` through the API at `baseUrl` (no `/v1`).
 */
export async function benchAutosave(
  baseUrl: string,
  token: string,
  options: {
    organizationId: string;
    pages: number;
    edits: number;
    storage?: () => Promise<StorageReading>;
    progress?: (line: string) => void;
  },
): Promise<AutosaveResult> {
  const api = new Api(baseUrl, token);
  const space = await api.call('POST', `/orgs/${options.organizationId}/spaces`, {
    title: `Autosave ${options.pages}`,
  });
  const seedCr = await api.call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  for (let from = 0; from < options.pages; from += BATCH) {
    const changes = Array.from({ length: Math.min(BATCH, options.pages - from) }, (_, k) => ({
      operation: 'insert_page',
      title: `Page ${from + k}`,
      document: { markdown: pageMarkdown(from + k) },
    }));
    await api.call('POST', `/spaces/${space.id}/change-requests/${seedCr.id}/content`, { changes });
  }
  await api.call('POST', `/spaces/${space.id}/change-requests/${seedCr.id}/merge`, {});
  options.progress?.(`  ${options.pages} pages written`);
  const cr = await api.call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Autosaves' });
  const content = await api.call('GET', `/spaces/${space.id}/change-requests/${cr.id}/content`);
  const pageId = content.pages[Math.floor(content.pages.length / 2)].id as string;

  let revision = cr.revision as string;
  const autosave = async (i: number) => {
    const response = await fetch(`${baseUrl}/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'if-match': `"${revision}"`,
      },
      body: JSON.stringify({
        changes: [
          { operation: 'update_page', page: pageId, document: { markdown: `${pageMarkdown(i)}\nDraft ${i}.\n` } },
        ],
      }),
    });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`autosave answered ${response.status}: ${JSON.stringify(body)}`);
    revision = body.revision;
  };
  for (let i = 0; i < 5; i++) await autosave(-1 - i); // warm-up: caches, prepared statements

  const before = await options.storage?.();
  const samples: number[] = [];
  for (let i = 0; i < options.edits; i++) {
    const started = performance.now();
    await autosave(i);
    samples.push(performance.now() - started);
  }
  const after = await options.storage?.();
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    pages: options.pages,
    samples,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    ...(before && after
      ? {
          rowsPerEdit: (after.rows - before.rows) / options.edits,
          bytesPerEdit: (after.bytes - before.bytes) / options.edits,
        }
      : {}),
  };
}

/** Every table's rows, and the bytes of their text and binary columns (the data, not the pages holding it). */
export async function readStorage(db: Db, postgres: boolean): Promise<StorageReading> {
  const tables = postgres
    ? await sql<{ table: string; column: string }>`
        select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = current_schema() and data_type in ('text', 'bytea', 'character varying')`.execute(db)
    : await sql<{ table: string; column: string }>`
        select m.name as "table", p.name as "column" from sqlite_master m, pragma_table_info(m.name) p
        where m.type = 'table' and m.name not like 'sqlite_%' and p.type in ('TEXT', 'BLOB', 'text', 'blob')`.execute(
        db,
      );
  const columns = new Map<string, string[]>();
  for (const { table, column } of tables.rows) columns.set(table, [...(columns.get(table) ?? []), column]);
  let rows = 0;
  let bytes = 0;
  for (const [table, names] of columns) {
    if (table === 'kysely_migration' || table === 'kysely_migration_lock') continue;
    const length = names.map((c) =>
      postgres ? `coalesce(octet_length("${c}"),0)` : `coalesce(length(cast("${c}" as blob)),0)`,
    );
    const row = await sql<{ n: number; b: number | string | null }>`
      select count(*) as n, sum(${sql.raw(length.join(' + '))}) as b from ${sql.id(table)}`.execute(db);
    rows += Number(row.rows[0]?.n ?? 0);
    bytes += Number(row.rows[0]?.b ?? 0);
  }
  return { rows, bytes };
}

async function run(label: string, databaseUrl: string): Promise<string[]> {
  const db = createDb(databaseUrl);
  const edits = Number(process.env.BENCH_AUTOSAVES ?? 100);
  const sizes = (process.env.BENCH_AUTOSAVE_PAGES ?? '200,2000').split(',').map(Number);
  try {
    await migrateToLatest(db);
    const admin = await findOrCreateUser(db, `admin-${newId(6).toLowerCase()}@bench.example`, 'Bench Admin');
    const org = await createOrganization(db, { title: 'Autosave Benchmark' }, admin.id);
    const { token } = await createToken(db, admin.id);
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), databaseUrl, ai: null, jobConcurrency: 0 };
    const app = await buildApp({ config, db, migrate: false, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const lines: string[] = [];
    try {
      for (const pages of sizes) {
        const result = await benchAutosave(baseUrl, token, {
          organizationId: org.id,
          pages,
          edits,
          storage: () => readStorage(db, isPostgresUrl(databaseUrl)),
          progress: (line) => process.stderr.write(`${label}:${line}\n`),
        });
        const ceiling =
          pages === 200
            ? `; ceiling p50 < ${AUTOSAVE_P50_CEILING_MS} ms: ${result.p50 < AUTOSAVE_P50_CEILING_MS ? 'met' : 'MISSED'}`
            : '';
        lines.push(
          `${label}: autosave (batch edit of one page, If-Match) in a change request of ${pages} pages: ` +
            `${latencySummary(result.samples)}; per autosave ${result.rowsPerEdit?.toFixed(1)} rows, ` +
            `${((result.bytesPerEdit ?? 0) / 1024).toFixed(1)} KiB${ceiling}`,
        );
      }
    } finally {
      await app.close();
    }
    return lines;
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  onEachDatabase('autosave', process.env.DATABASE_URL, run)
    .then((results) => {
      for (const line of results.flat()) console.log(line);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
