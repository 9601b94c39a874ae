/**
 * Why the response cache (src/http/response-cache.ts) missed, per route: on with
 * `RESPONSE_CACHE_DIAGNOSIS=1` (the mixed-traffic bench sets it with `BENCH_CACHE_CAUSES=1`), and
 * reported by `/metrics` as `bindery_response_cache_diagnosis_total{route,outcome}`. Off, nothing
 * here runs.
 *
 * Each answer dropped (or refused) leaves a tombstone under its key saying why; the next lookup of
 * that key that misses counts the cause:
 * - `hit`;
 * - `cold`: the key's first lookup;
 * - `in flight`: the answer of an earlier miss of the same key is still being computed;
 * - `unexplained`: looked up before, with no cause noted (none expected);
 * - `dropped <scope kind>`: a write of a scope it depended on committed (`org`, `orgbase`, `space`,
 *   `cr`, `space-crs`, …; `user`; `global`: a change of unknown scope; `any`: the answer did not say
 *   what it read);
 * - `expired`: nothing it depended on changed, but it was older than the age bound;
 * - `evicted`: pushed out by the byte budget;
 * - `refused <scope kind>`: a write of a scope it read committed while it was computed;
 * - `not kept`: its answer was not a 200 JSON body, or too large;
 * - `no feed`: changes could not be known then (nothing is served from memory);
 * - `uncacheable`: a GET of a route not declared `cacheable`.
 */
export class CacheDiagnosis {
  /** Per route pattern, per outcome: lookups. */
  readonly counts = new Map<string, Map<string, number>>();
  /** Why the answer of each key went, until it is kept again. */
  private readonly tombstones = new Map<string, string>();
  /** Keys looked up so far (to tell a first lookup from one whose answer went unnoticed). */
  private readonly seen = new Set<string>();
  /** Keys whose answer is being computed after a miss. */
  private readonly computing = new Set<string>();

  count(route: string, outcome: string): void {
    let outcomes = this.counts.get(route);
    if (outcomes === undefined) {
      outcomes = new Map();
      this.counts.set(route, outcomes);
    }
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }

  /** Counts a miss of `key`, by the cause its tombstone names. */
  miss(route: string, key: string): void {
    const cause = this.computing.has(key)
      ? 'in flight'
      : (this.tombstones.get(key) ?? (this.seen.has(key) ? 'unexplained' : 'cold'));
    if (this.seen.size >= MAX_KEYS) this.forget();
    this.seen.add(key);
    this.computing.add(key);
    this.count(route, cause);
  }

  /** The answer under `key` went (or was not kept) for `cause`. */
  bury(key: string, cause: string): void {
    if (this.tombstones.size >= MAX_KEYS) this.forget();
    this.tombstones.set(key, cause);
    this.computing.delete(key);
  }

  kept(key: string): void {
    this.tombstones.delete(key);
    this.computing.delete(key);
  }

  /** Bounds the memory: the keys' next misses count as first lookups. */
  private forget(): void {
    this.tombstones.clear();
    this.seen.clear();
    this.computing.clear();
  }
}

const MAX_KEYS = 500_000;

/** The kind of a scope (`org:…` → `org`), as the diagnosis names it. */
export function scopeKind(scope: string | null): string {
  if (scope === null) return 'any';
  if (scope === '*') return 'global';
  return scope.slice(0, scope.indexOf(':'));
}
