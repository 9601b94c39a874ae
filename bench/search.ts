/**
 * Content search latency: `GET /v1/orgs/{id}/search` over 2,000 pages (20 spaces × 100 pages, 5
 * passages each, some of them in Chinese), as a member who reads every space. Part of `npm run bench`
 * (after its other runs); `npm run bench:search` runs it alone.
 *
 * Pages are written straight through the revision store and indexed (timed); then ~100 queries one
 * after the other through the app (in process, `inject`: no network, response cache off so that
 * every query runs the search): words, phrases, parts of words, CJK, and queries that find nothing.
 * Reports p50/p95/p99 against the ceiling: p50 under {@link P50_CEILING_MS} ms.
 *
 * A fresh SQLite file, and PostgreSQL too when DATABASE_URL is a postgres:// URL (a fresh database
 * created for the run and dropped after). BENCH_SEARCHES sets the number of queries (default 100).
 * BENCH_CPU_PROF=<folder> writes a V8 CPU profile of the queries (not of the seeding) there, one per
 * database.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { latencySummary, onEachDatabase, percentile, pick, random, seedCorpus } from './corpus.js';

const SPACES = 20;
const PAGES_PER_SPACE = 100;
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100);
export const P50_CEILING_MS = 20;

const TOPICS = [
  'authentication',
  'billing',
  'deployment',
  'monitoring',
  'backups',
  'permissions',
  'webhooks',
  'caching',
  'migrations',
  'logging',
  'invoices',
  'onboarding',
  'encryption',
  'quotas',
  'exports',
  'notifications',
];
const VERBS = ['configure', 'enable', 'disable', 'troubleshoot', 'monitor', 'secure', 'export', 'rotate'];
const CJK = [
  '安装服务器的方法很简单',
  'サーバーの設定を変更します',
  '서버를 설치하는 방법입니다',
  '权限设置与备份策略',
];
const FILLER =
  'The service keeps every change in an immutable history so that nothing is lost. Administrators can review ' +
  'the settings at any time from the dashboard, and members see only what their role allows.';

function pageMarkdown(topic: string, n: number, next: () => number): string {
  const sections = [1, 2, 3, 4].map((i) => {
    const verb = pick(VERBS, next);
    const other = pick(TOPICS, next);
    const cjk = n % 10 === 0 ? ` ${pick(CJK, next)}。` : '';
    return (
      `## ${verb[0]?.toUpperCase()}${verb.slice(1)} ${topic} ${n}.${i}\n\n` +
      `To ${verb} ${topic} for ${other}, open the ${topic} settings and choose option ${n}-${i}.${cjk} ${FILLER}`
    );
  });
  return `${topic[0]?.toUpperCase()}${topic.slice(1)} guide number ${n}.\n\n${sections.join('\n\n')}`;
}

export const seedContent = (db: Db) =>
  seedCorpus(db, {
    title: 'Search Benchmark',
    spaces: SPACES,
    pagesPerSpace: PAGES_PER_SPACE,
    topics: TOPICS,
    markdown: pageMarkdown,
  });

function queries(): string[] {
  const next = random(7);
  return Array.from({ length: SEARCHES }, (_, i) => {
    const topic = pick(TOPICS, next);
    switch (i % 6) {
      case 0:
        return topic;
      case 1:
        return `${pick(VERBS, next)} ${topic}`;
      case 2:
        return topic.slice(1, 5); // part of a word
      case 3:
        return pick(['安装服务器', '設定', '서버', '权限设置'], next);
      case 4:
        return `choose option ${Math.floor(next() * SPACES * PAGES_PER_SPACE)}-2`;
      default:
        return 'unladen swallow airspeed';
    }
  });
}

/** With BENCH_CPU_PROF set, starts profiling this process; the function returned writes the profile. */
async function startProfile(): Promise<((name: string) => Promise<void>) | undefined> {
  const folder = process.env.BENCH_CPU_PROF;
  if (!folder) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `${name}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/** Runs the search bench on one database; returns its report line. */
async function run(label: string, databaseUrl: string): Promise<string> {
  const db = createDb(databaseUrl);
  try {
    await migrateToLatest(db);
    const seeded = await seedContent(db);
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', RESPONSE_CACHE_MB: '0' }),
      databaseUrl,
      ai: null,
      jobConcurrency: 0,
    };
    const app = await buildApp({ config, db, migrate: false, logger: false });
    await app.ready();
    const headers = { authorization: `Bearer ${seeded.token}` };
    const base = `/v1/orgs/${seeded.organizationId}/search`;
    const get = (query: string) =>
      app.inject({ method: 'GET', url: `${base}?query=${encodeURIComponent(query)}`, headers });
    await get('warm up billing');
    const samples: number[] = [];
    let found = 0;
    // CPU of this process (the app, and SQLite, which runs in it; not PostgreSQL's): per query, it
    // is what a search costs the server whatever else shares the machine, unlike the wall time.
    const profile = await startProfile();
    const cpuBefore = process.cpuUsage();
    for (const query of queries()) {
      const started = performance.now();
      const res = await get(query);
      samples.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
      if ((JSON.parse(res.body).count as number) > 0) found++;
    }
    const cpu = process.cpuUsage(cpuBefore);
    await profile?.(`search-${label.toLowerCase()}`);
    const cpuPerQuery = (cpu.user + cpu.system) / 1000 / samples.length;
    await app.close();
    const p50 = percentile(
      [...samples].sort((a, b) => a - b),
      50,
    );
    return (
      `${label}: GET …/orgs/{id}/search over ${SPACES * PAGES_PER_SPACE} pages in ${SPACES} spaces ` +
      `(${seeded.passages} passages, indexed in ${(seeded.indexedMs / 1000).toFixed(1)} s): ` +
      `${latencySummary(samples)}, CPU ${cpuPerQuery.toFixed(2)} ms a query, ${found} with results; ceiling p50 < ${P50_CEILING_MS} ms: ${p50 < P50_CEILING_MS ? 'met' : 'MISSED'}`
    );
  } finally {
    await db.destroy();
  }
}

/** The search bench on SQLite, and on PostgreSQL when `postgresUrl` is given: one report line each. */
export const benchSearch = (postgresUrl?: string): Promise<string[]> => onEachDatabase('search', postgresUrl, run);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchSearch(process.env.DATABASE_URL)
    .then((lines) => {
      for (const line of lines) console.log(line);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
