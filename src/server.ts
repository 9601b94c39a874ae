/**
 * Starts the HTTP server and shuts it down gracefully (drain in-flight requests, close the DB).
 * With `WORKERS` > 1 (PostgreSQL only), this process is a `node:cluster` primary: it migrates
 * once, then runs that many worker processes on the same port, each with its own database pool,
 * starts a new one when one dies, relays cache invalidations between them (core/cache.ts) and
 * passes SIGTERM/SIGINT on so each drains before it exits.
 */
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import type { Config } from './config.js';
import { listenForInvalidations, relayInvalidations } from './core/cache.js';
import { createDb } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { releaseStartupMemory } from './http/memory.js';

/** The one human line of a start (the JSON logs are for machines): where to send requests and read the reference. */
export function listeningLine(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const base = `http://${host}:${address.port}`;
  return `Bindery listening on ${base} — API reference: ${base}/docs`;
}

export async function startServer(config: Config): Promise<void> {
  if (config.workers > 1 && cluster.isPrimary) return startWorkers(config);
  listenForInvalidations();
  // Imported here, not above: a cluster's primary serves nothing and need not hold the application.
  const { buildApp } = await import('./app.js');
  const app = await buildApp({ config });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  releaseStartupMemory();
  // stderr: stdout carries the JSON log lines, which log collectors parse. Workers of a cluster
  // share the port: the first one says it.
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    const workers = cluster.isWorker ? ` (${config.workers} workers)` : '';
    process.stderr.write(`${listeningLine(app.server.address() as AddressInfo)}${workers}\n`);
  }
}

async function startWorkers(config: Config): Promise<void> {
  // Once, before any worker starts, so the workers do not race to migrate.
  const db = createDb(config.databaseUrl);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  relayInvalidations();
  let stopping = false;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`bindery: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
  for (let i = 0; i < config.workers; i++) cluster.fork();
  releaseStartupMemory();
}
