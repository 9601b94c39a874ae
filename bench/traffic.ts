/**
 * The figures of issue #35 measured under traffic: the mixed traffic (bench/mixed.ts) and the autosave
 * (bench/traffic-autosave.ts), each on a fresh SQLite file and, when DATABASE_URL is a postgres:// URL, on a
 * fresh PostgreSQL database (dropped after). Part of `npm run bench` (BENCH_MIXED=0 skips it);
 * alone: `npm run bench:mixed` (or `BENCH_ONLY=mixed npm run bench`).
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { onEachDatabase } from './corpus.js';
import { benchMixed, type MixedResult } from './mixed.js';
import { cleanUp, ensureBuild } from './processes.js';
import { fixed, printAutosave, printMixed } from './report.js';
import { AUTOSAVES, CONNECTIONS, MIXED_DURATION, MIXED_WARMUP, MIXED_WRITE_SHARE } from './settings.js';
import { type AutosaveResult, benchAutosave } from './traffic-autosave.js';
import { log } from './util.js';

export interface TrafficResult {
  mixed: MixedResult[];
  autosave: AutosaveResult[];
}

export async function benchTraffic(postgresUrl: string | undefined): Promise<TrafficResult> {
  const mixed = await onEachDatabase('mixed', postgresUrl, benchMixed);
  const autosave = AUTOSAVES > 0 ? await onEachDatabase('autosave', postgresUrl, benchAutosave) : [];
  return { mixed, autosave };
}

export function printTraffic(result: TrafficResult): void {
  console.log(
    `\nmixed traffic: autocannon ${CONNECTIONS} connections, ${MIXED_DURATION} s of each mix in 2 interleaved rounds after ${MIXED_WARMUP} s of warm-up each, ${MIXED_WRITE_SHARE * 100} % writes; autosave: ${AUTOSAVES} saves per space size`,
  );
  printMixed(result.mixed);
  printAutosave(result.autosave);
}

/** Runs the traffic figures alone, with the machine's load average at the start and the end. */
export async function runTrafficAlone(): Promise<void> {
  const started = performance.now();
  ensureBuild();
  const loadAtStart = os.loadavg();
  const envUrl = process.env.DATABASE_URL;
  const result = await benchTraffic(envUrl);
  console.log(
    `\nmachine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}); Node ${process.version}`,
  );
  console.log(`load average at start ${loadAtStart.map((l) => fixed(l, 2)).join(' ')}`);
  printTraffic(result);
  console.log(
    `\nload average at the end ${os
      .loadavg()
      .map((l) => fixed(l, 2))
      .join(' ')}`,
  );
  console.log(`total ${fixed((performance.now() - started) / 1000, 0)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runTrafficAlone()
    .catch((error: unknown) => {
      log(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    })
    .finally(() => cleanUp());
}
