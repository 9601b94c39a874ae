/**
 * `npm run bench:ask`: latency of AI answers (extractive, no model) over 1,000 pages.
 *
 * Seeds an organization with 10 spaces of 100 pages each, written straight through the revision
 * store (documents from Markdown, one revision per space), indexes them (timed), then asks ~100
 * questions one after the other through the app (in process, `inject`: no network) as a member who
 * can read every space, and reports p50/p95/p99 of `POST /v1/orgs/{id}/ask`, of the streamed
 * variant, and of the recommended questions.
 *
 * Runs on a fresh SQLite file in a temporary folder, and also on PostgreSQL when DATABASE_URL is a
 * postgres:// URL (a fresh database is created on that server for the run and dropped after).
 * BENCH_QUESTIONS sets the number of questions (default 100).
 */
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { onEachDatabase, pick, random, seedCorpus, latencySummary as summary } from './corpus.js';

const SPACES = 10;
const PAGES_PER_SPACE = 100;
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 100);

const TOPICS = [
  'authentication',
  'billing',
  'deployment',
  'monitoring',
  'backups',
  'permissions',
  'webhooks',
  'search',
  'caching',
  'migrations',
  'logging',
  'invoices',
  'onboarding',
  'encryption',
  'quotas',
  'exports',
  'imports',
  'notifications',
  'scheduling',
  'analytics',
];
const VERBS = ['configure', 'enable', 'disable', 'troubleshoot', 'monitor', 'secure', 'export', 'rotate'];
const FILLER =
  'The service keeps every change in an immutable history so that nothing is lost. Administrators can review ' +
  'the settings at any time from the dashboard, and members see only what their role allows. Limits apply per ' +
  'organization and are documented on the reference pages.';

function pageMarkdown(topic: string, n: number, next: () => number): string {
  const sections = [1, 2, 3, 4].map((i) => {
    const verb = pick(VERBS, next);
    const other = pick(TOPICS, next);
    return (
      `## ${verb[0]?.toUpperCase()}${verb.slice(1)} ${topic} ${n}.${i}\n\n` +
      `To ${verb} ${topic} for ${other}, open the ${topic} settings and choose option ${n}-${i}. ` +
      `${FILLER} When ${other} is involved, ${topic} rules run first.`
    );
  });
  return `${topic[0]?.toUpperCase()}${topic.slice(1)} guide number ${n}.\n\n${sections.join('\n\n')}`;
}

function questions(): string[] {
  const next = random(7);
  return Array.from({ length: QUESTIONS }, (_, i) => {
    const topic = pick(TOPICS, next);
    const verb = pick(VERBS, next);
    if (i % 10 === 9) return 'What is the airspeed velocity of an unladen swallow?';
    if (i % 3 === 0) return `How do I ${verb} ${topic}?`;
    if (i % 3 === 1) return `Which option should I choose to ${verb} ${topic} for ${pick(TOPICS, next)}?`;
    return `${topic} rules`;
  });
}

async function run(label: string, databaseUrl: string): Promise<void> {
  const db = createDb(databaseUrl);
  try {
    await migrateToLatest(db);
    const seeded = await seedCorpus(db, {
      title: 'Ask Benchmark',
      spaces: SPACES,
      pagesPerSpace: PAGES_PER_SPACE,
      topics: TOPICS,
      markdown: pageMarkdown,
    });
    console.log(
      `${label}: seeded ${SPACES * PAGES_PER_SPACE} pages in ${(seeded.seededMs / 1000).toFixed(1)} s, ` +
        `indexed ${seeded.passages} passages in ${(seeded.indexedMs / 1000).toFixed(1)} s`,
    );
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), databaseUrl, ai: null, jobConcurrency: 0 };
    const app = await buildApp({ config, db, migrate: false, logger: false });
    await app.ready();
    const headers = { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' };
    const base = `/v1/orgs/${seeded.organizationId}/ask`;
    const asks: number[] = [];
    const streams: number[] = [];
    const recommended: number[] = [];
    let answered = 0;
    // One warm-up request (caches, prepared plans).
    await app.inject({ method: 'POST', url: base, headers, payload: JSON.stringify({ query: 'warm up billing' }) });
    for (const query of questions()) {
      let started = performance.now();
      const res = await app.inject({ method: 'POST', url: base, headers, payload: JSON.stringify({ query }) });
      asks.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`ask answered ${res.statusCode}: ${res.body}`);
      if ((JSON.parse(res.body).answer.sources as unknown[]).length > 0) answered++;
      started = performance.now();
      const stream = await app.inject({
        method: 'GET',
        url: `${base}/stream?query=${encodeURIComponent(query)}`,
        headers,
      });
      streams.push(performance.now() - started);
      if (!stream.body.includes('event: done')) throw new Error('the stream did not end with done');
    }
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await app.inject({ method: 'GET', url: `${base}/questions`, headers });
      recommended.push(performance.now() - started);
    }
    console.log(
      `${label}: POST …/ask          ${summary(asks)}; ${answered} answered, ${asks.length - answered} "no answer"`,
    );
    console.log(`${label}: GET  …/ask/stream   ${summary(streams)}`);
    console.log(`${label}: GET  …/ask/questions ${summary(recommended)}`);
    await app.close();
  } finally {
    await db.destroy();
  }
}

async function main() {
  await onEachDatabase('ask', process.env.DATABASE_URL, run);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
