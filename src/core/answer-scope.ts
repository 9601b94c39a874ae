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
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { organizationScope, userScope } from '../db/write-scope.js';

export class AnswerScope {
  readonly scopes: Set<string>;
  /** Whether the scopes are known to bound what the answer shows (else it depends on everything). */
  bounded = false;

  constructor(callerId: string) {
    this.scopes = new Set([userScope(callerId)]);
  }

  /** The scopes the answer depends on, or null for every write. */
  dependencies(): string[] | null {
    return this.bounded ? [...this.scopes] : null;
  }
}

const current = new AsyncLocalStorage<AnswerScope>();

/** Runs `fn` (the rest of a request's handling) collecting into `scope`. */
export function collectAnswerScope(scope: AnswerScope, fn: () => void): void {
  current.run(scope, fn);
}

/** The answer being computed reads `organizationId`'s data (authorized there). */
export function readsOrganization(organizationId: string): void {
  const scope = current.getStore();
  if (!scope) return;
  scope.scopes.add(organizationScope(organizationId));
  scope.bounded = true;
}

/** The answer being computed shows exactly data of `scopes` (and of global writes). */
export function dependsOn(...scopes: string[]): void {
  const scope = current.getStore();
  if (!scope) return;
  for (const s of scopes) scope.scopes.add(s);
  scope.bounded = true;
}
