/**
 * Idle memory of a fresh server. Start-up (loading modules, building 400-odd routes, the first
 * queries) grows V8's young generation to its largest (two 16 MB semi-spaces, all resident), and V8
 * shrinks it only during a young-generation collection that finds allocation has been low (not nil)
 * for a few seconds — which a server with nothing to do never runs, so it idled at ~133 MB instead
 * of ~105 MB until some timer happened to allocate. Two such collections after listening give that
 * memory back. It is done once; when requests keep the server busy by then, V8 keeps the space it
 * uses (the collection just finds allocation high), and this costs two scavenges of a millisecond.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * V8 reads the allocation rate from what was allocated between its last collections, over at least
 * 5 s: the first collection closes the period that holds start-up's allocation, the second (after a
 * little more than 5 s) finds the rate of an idle server and shrinks the young generation.
 */
const SETTLE_AFTER_MS = 6_000;

type GcFunction = (options: { type: 'minor' | 'major'; execution: 'sync' }) => void;

/** Collects V8's young generation now and `delayMs` from now, without holding the process open. */
export function releaseStartupMemory(delayMs = SETTLE_AFTER_MS): NodeJS.Timeout {
  youngGenerationCollection();
  const timer = setTimeout(youngGenerationCollection, delayMs);
  timer.unref();
  return timer;
}

/**
 * `gc` exists only in contexts created while `--expose-gc` is set: a new context gets it and the
 * flag is cleared again, so the application's own global never has one.
 */
function youngGenerationCollection(): void {
  v8.setFlagsFromString('--expose-gc');
  try {
    (vm.runInNewContext('gc') as GcFunction)({ type: 'minor', execution: 'sync' });
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
