/**
 * What a cached answer depends on (src/http/response-cache.ts): the scopes of data it was computed
 * from (src/db/write-scope.ts), collected while the handler runs. The answer is served from memory
 * while no write of those scopes, and no global write, has committed since it was computed.
 *
 * - Every answer depends on the caller's memberships (`user:<caller>`).
 * - Authorizing in an organization ({@link readsOrganization}, called by `findMembership`, which
 *   every read of an organization's data goes through) adds that organization: an answer shows
 *   only data of the organizations it authorized in, besides data that only global writes change
 *   (users, tokens…).
 * - A handler that reads across organizations without authorizing in each (the caller's
 *   organizations, a user by id) says what it read with {@link dependsOn}.
 * - An answer that did neither depends on every write: nothing tells what it read.
 * - An answer that names the parts of its organizations it shows ({@link readsParts}: a space, a
 *   change request, their lists; src/db/scope-parts.ts) depends on those and on the organizations'
 *   base instead of all of their data, provided the part tables it read are covered by what it named
 *   (checked at the driver, table by table); else it depends on all of their data, as before.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import {
  kindOf,
  organizationBaseScope,
  type PartKind,
  type ReadTracker,
  readCovered,
  readTracking,
} from '../db/scope-parts.js';
import { organizationScope, userScope } from '../db/write-scope.js';

export class AnswerScope implements ReadTracker {
  readonly scopes: Set<string>;
  /** The organizations the answer authorized in. */
  readonly organizations = new Set<string>();
  /** The parts the answer says it shows; null when it did not say (then it shows any of its organizations' data). */
  parts: Set<string> | null = null;
  /** The part and neutral tables its statements read (noted by the drivers). */
  readonly tablesRead = new Set<string>();
  /** Whether the scopes are known to bound what the answer shows (else it depends on everything). */
  bounded = false;

  constructor(callerId: string) {
    this.scopes = new Set([userScope(callerId)]);
  }

  /** The scopes the answer depends on, or null for every write. */
  dependencies(): string[] | null {
    if (!this.bounded) return null;
    const dependencies = [...this.scopes];
    const parts = this.parts !== null && readCovered(this.tablesRead, kindsOf(this.parts)) ? this.parts : null;
    for (const id of this.organizations) {
      dependencies.push(parts === null ? organizationScope(id) : organizationBaseScope(id));
    }
    if (parts !== null) dependencies.push(...parts);
    return dependencies;
  }
}

function kindsOf(parts: ReadonlySet<string>): Set<PartKind> {
  const kinds = new Set<PartKind>();
  for (const part of parts) kinds.add(kindOf(part));
  return kinds;
}

// The drivers note what a statement read into the answer the running code computes.
const current = readTracking as AsyncLocalStorage<AnswerScope>;

/** Runs `fn` (the rest of a request's handling) collecting into `scope`. */
export function collectAnswerScope(scope: AnswerScope, fn: () => void): void {
  current.run(scope, fn);
}

/** The answer being computed reads `organizationId`'s data (authorized there). */
export function readsOrganization(organizationId: string): void {
  const scope = current.getStore();
  if (!scope) return;
  scope.organizations.add(organizationId);
  scope.bounded = true;
}

/**
 * The answer being computed shows, of its organizations' data, only their base and `parts`
 * (src/db/scope-parts.ts: `spacePart(id)`, `changeRequestPart(id)`, …; none: the base alone).
 * Every part of every row it shows must be named; the part tables it reads are checked.
 */
export function readsParts(...parts: string[]): void {
  const scope = current.getStore();
  if (!scope) return;
  scope.parts ??= new Set();
  for (const part of parts) scope.parts.add(part);
}

/** The answer being computed shows exactly data of `scopes` (and of global writes). */
export function dependsOn(...scopes: string[]): void {
  const scope = current.getStore();
  if (!scope) return;
  for (const s of scopes) scope.scopes.add(s);
  scope.bounded = true;
}
