/**
 * What the content benches (search, ask) share: a deterministic corpus of generated pages written
 * straight through the revision store and indexed, latency percentiles, and running one bench on a
 * fresh SQLite file and, when given a postgres:// URL, on a fresh PostgreSQL database dropped after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createOrganization } from '../src/api/organizations/repo.js';
import { createSpace } from '../src/api/spaces/repo.js';
import { findOrCreateUser } from '../src/api/users/repo.js';
import { markdownToDocument } from '../src/content/markdown.js';
import { type PageNode, putDocument, writeRevision } from '../src/content/store.js';
import { createToken } from '../src/core/tokens.js';
import { type Db, isPostgresUrl } from '../src/db/database.js';
import { dialectOf } from '../src/db/dialect.js';
import { newId } from '../src/lib/ids.js';
import { indexSpace } from '../src/search/index.js';

/** A deterministic pseudo-random sequence (so runs are comparable). */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

export const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)] as T;

export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

/** `p50 … ms, p95 … ms, p99 … ms (n=…)` of unsorted samples. */
export function latencySummary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (n: number) => percentile(sorted, n).toFixed(1);
  return `p50 ${f(50)} ms, p95 ${f(95)} ms, p99 ${f(99)} ms (n=${samples.length})`;
}

export interface CorpusShape {
  title: string;
  spaces: number;
  pagesPerSpace: number;
  topics: readonly string[];
  /** The Markdown of page number `n` (over the whole organization) about `topic`. */
  markdown: (topic: string, n: number, next: () => number) => string;
}

/** An organization with its admin's token and `spaces × pagesPerSpace` pages, one revision per space, indexed. */
export async function seedCorpus(db: Db, shape: CorpusShape) {
  const admin = await findOrCreateUser(db, `admin-${newId(6).toLowerCase()}@bench.example`, 'Bench Admin');
  const org = await createOrganization(db, { title: shape.title }, admin.id);
  const { token } = await createToken(db, admin.id);
  const next = random(42);
  const spaces: string[] = [];
  const started = performance.now();
  for (let s = 0; s < shape.spaces; s++) {
    const space = await createSpace(db, org.id, { title: `Space ${s}` });
    const pages: PageNode[] = [];
    for (let p = 0; p < shape.pagesPerSpace; p++) {
      const n = s * shape.pagesPerSpace + p;
      const topic = shape.topics[n % shape.topics.length] as string;
      const document = await putDocument(db, markdownToDocument(shape.markdown(topic, n, next)));
      pages.push({
        id: newId(),
        type: 'document',
        title: `${topic} ${n}`,
        slug: `${topic}-${n}`,
        document,
        children: [],
      });
    }
    const revision = await writeRevision(db, {
      spaceId: space.id,
      parents: [],
      type: 'edits',
      pages,
      files: [],
      reusableContents: [],
      createdBy: admin.id,
    });
    await db.updateTable('spaces').set({ revision_id: revision.id }).where('id', '=', space.id).execute();
    spaces.push(space.id);
  }
  const seededMs = performance.now() - started;
  const indexStarted = performance.now();
  for (const id of spaces) await indexSpace(db, id);
  const indexedMs = performance.now() - indexStarted;
  // Autovacuum analyzes tables loaded this fast within a minute of the load, as it would on a
  // running server; the queries come sooner here: give the planner its statistics now (as
  // bench/run.ts does after seeding).
  if (dialectOf(db) === 'postgres') await sql`analyze`.execute(db);
  const passages = await db
    .selectFrom('search_passages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { organizationId: org.id, token, seededMs, indexedMs, passages: Number(passages.n) };
}

/**
 * Runs `bench` on a fresh SQLite file, then on a fresh database of the PostgreSQL server at
 * `postgresUrl` when it is one (dropped after); returns what each run returned.
 */
export async function onEachDatabase<T>(
  name: string,
  postgresUrl: string | undefined,
  bench: (label: string, databaseUrl: string) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `bindery-bench-${name}-`));
  try {
    results.push(await bench('SQLite', `sqlite:${path.join(folder, 'bench.sqlite')}`));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  if (postgresUrl && isPostgresUrl(postgresUrl)) {
    const database = `bindery_bench_${name}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const target = new URL(postgresUrl);
    target.pathname = `/${database}`;
    try {
      results.push(await bench('PostgreSQL', target.toString()));
    } finally {
      // The pool has ended, but the server may still be closing its backends: give them a moment
      // so that the forced drop does not have to terminate them.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  }
  return results;
}
