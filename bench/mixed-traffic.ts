/**
 * The requests of the mixed-traffic bench: each one drawn at random when autocannon is about to send
 * it (a `setupRequest` built anew for every request), reads spread over organizations, spaces,
 * members, change requests, pages and search, and with probability `writeShare` a write in a random
 * organization: an autosave (the editor's batch edit of one page in a change request, `?compat=false`
 * with `If-Match` naming the revision last answered, as app/src/features/editor/save-queue.ts sends
 * it), a comment on a change request, or a space's rename.
 *
 * Writes to one change request, or one space's renames, are never in flight twice at once (as one
 * editor's save queue sends one batch at a time): a target with a write in flight is skipped. What
 * each target's last answered write left (the revision, the page's marker, the space's title) is kept
 * for the stale check (bench/mixed-stale.ts).
 */
import type autocannon from 'autocannon';
import { random } from './corpus.js';
import { MARKER, type MixedChangeRequest, type MixedOrg, type MixedSpace, type MixedWorld } from './mixed-seed.js';
import { sleep } from './util.js';

type Weighted<T> = readonly (readonly [T, number])[];

const READS = [
  ['GET /orgs/{id}', 10],
  ['GET /orgs/{id}/spaces', 8],
  ['GET /spaces/{id}', 14],
  ['GET /orgs/{id}/members', 7],
  ['GET /orgs/{id}/members/{userId}', 7],
  ['GET /spaces/{id}/change-requests', 7],
  ['GET /spaces/{id}/change-requests/{crId}', 10],
  ['GET …/change-requests/{crId}/content/page/{pageId}', 7],
  ['GET /spaces/{id}/content/page/{pageId}', 14],
  ['GET /spaces/{id}/content/pages', 6],
  ['GET /orgs/{id}/search', 10],
] as const satisfies Weighted<string>;

const WRITES = [
  ['autosave', 6],
  ['comment', 2],
  ['rename', 2],
] as const satisfies Weighted<string>;

export type RequestKind = (typeof READS)[number][0] | (typeof WRITES)[number][0];
export const WRITE_KINDS: readonly RequestKind[] = WRITES.map(([kind]) => kind);

const SEARCH_WORDS = ['documentation', 'server', 'change', 'pages', 'together', 'safe', 'keeps', 'write'];

function chooser<T>(items: Weighted<T>): (r: number) => T {
  const total = items.reduce((sum, [, w]) => sum + w, 0);
  return (r) => {
    let left = r * total;
    for (const [item, weight] of items) {
      left -= weight;
      if (left < 0) return item;
    }
    return items[items.length - 1]?.[0] as T;
  };
}

/** What the last answered write of each target left, and which targets have one in flight. */
export class WriteLedger {
  /** Change request id → its revision, and the marker its page holds, as last answered. */
  readonly changeRequests = new Map<string, { cr: MixedChangeRequest; space: MixedSpace; marker: string }>();
  /** Space id → its title as last answered. */
  readonly titles = new Map<string, { space: MixedSpace; title: string }>();
  /** Targets with a write in flight (`cr:<id>`, `space:<id>`). */
  readonly busy = new Set<string>();
  /** Targets whose last write's answer was lost (cut off at the end of a run): re-read before reuse. */
  readonly unknown = new Set<string>();
  writes = 0;
  /** The first few answers that were not 2xx (method, path, status, body), to say what went wrong. */
  readonly failures: string[] = [];
}

export function mixedRequests(
  world: MixedWorld,
  writeShare: number,
  ledger: WriteLedger,
  seed: number,
): autocannon.Request[] {
  const next = random(seed);
  const read = chooser(READS);
  const write = chooser(WRITES);
  const orgs = world.organizations;
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const json = (token: string) => ({ ...auth(token), 'content-type': 'application/json' });

  const readRequest = (kind: RequestKind, org: MixedOrg): autocannon.RequestParams => {
    const token = pick(org.tokens).token;
    const space = pick(org.spaces);
    const cr = space.changeRequest;
    const paths: Partial<Record<RequestKind, () => string>> = {
      'GET /orgs/{id}': () => `/v1/orgs/${org.id}`,
      'GET /orgs/{id}/spaces': () => `/v1/orgs/${org.id}/spaces?limit=20`,
      'GET /spaces/{id}': () => `/v1/spaces/${space.id}`,
      'GET /orgs/{id}/members': () => `/v1/orgs/${org.id}/members?limit=20`,
      'GET /orgs/{id}/members/{userId}': () => `/v1/orgs/${org.id}/members/${pick(org.members)}`,
      'GET /spaces/{id}/change-requests': () => `/v1/spaces/${space.id}/change-requests`,
      'GET /spaces/{id}/change-requests/{crId}': () => `/v1/spaces/${space.id}/change-requests/${cr.id}`,
      'GET …/change-requests/{crId}/content/page/{pageId}': () =>
        `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${cr.pageId}`,
      'GET /spaces/{id}/content/page/{pageId}': () => `/v1/spaces/${space.id}/content/page/${pick(space.pages)}`,
      'GET /spaces/{id}/content/pages': () => `/v1/spaces/${space.id}/content/pages`,
      'GET /orgs/{id}/search': () => `/v1/orgs/${org.id}/search?query=${pick(SEARCH_WORDS)}`,
    };
    return { method: 'GET', path: (paths[kind] as () => string)(), headers: auth(token) };
  };

  /** A write of `kind` to a target with none in flight (undefined when it found none). */
  const writeRequest = (kind: RequestKind, context: Record<string, any>): autocannon.RequestParams | undefined => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const org = pick(orgs);
      const space = pick(org.spaces);
      const target = kind === 'rename' ? `space:${space.id}` : `cr:${space.changeRequest.id}`;
      if (ledger.busy.has(target) || ledger.unknown.has(target)) continue;
      ledger.busy.add(target);
      const [admin, editor, third] = org.tokens as [MixedToken, MixedToken, MixedToken];
      const cr = space.changeRequest;
      const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
      const stamp = `${Date.now().toString(36)}${Math.floor(next() * 1e9).toString(36)}`;
      Object.assign(context, { kind, target, space, stamp });
      if (kind === 'autosave') {
        const document = world.documentTemplate.replace(MARKER, `autosave ${stamp}`);
        return {
          method: 'POST',
          path: `${base}/content?compat=false`,
          headers: { ...json(editor.token), 'if-match': `"${cr.revision}"` },
          body: `{"changes":[{"operation":"update_page","page":"${cr.pageId}","document":{"document":${document}}}]}`,
        };
      }
      if (kind === 'comment') {
        // Any member allowed to comment: the third token holder when it may, else the editor.
        const author = third.role === 'read' ? editor : third;
        return {
          method: 'POST',
          path: `${base}/comments`,
          headers: json(author.token),
          body: JSON.stringify({ body: { markdown: `Comment ${stamp} on this draft.` }, page: cr.pageId }),
        };
      }
      return {
        method: 'PATCH',
        path: `/v1/spaces/${space.id}`,
        headers: json(admin.token),
        body: JSON.stringify({ title: `Space renamed ${stamp}` }),
      };
    }
    return undefined;
  };

  return [
    {
      // autocannon's defaults (host, port) are in `request`: the drawn request is laid over them.
      setupRequest: (request, context) => {
        if (next() < writeShare) {
          const kind = write(next());
          const drawn = writeRequest(kind, context);
          if (drawn) {
            context.request = `${drawn.method} ${drawn.path}`;
            return { ...request, ...drawn };
          }
        }
        const kind = read(next());
        const drawn = readRequest(kind, pick(orgs));
        Object.assign(context, { kind, request: `${drawn.method} ${drawn.path}` });
        return { ...request, ...drawn };
      },
      onResponse: (status, body, context) => {
        const { kind, target, space, stamp } = context as {
          kind: RequestKind;
          target?: string;
          space?: MixedSpace;
          stamp?: string;
        };
        if (status >= 300 && ledger.failures.length < 5) {
          ledger.failures.push(`${context.request} answered ${status}: ${String(body).slice(0, 200)}`);
        }
        if (!target || !space) return;
        ledger.busy.delete(target);
        if (status >= 300) {
          ledger.unknown.add(target);
          return;
        }
        ledger.writes++;
        if (kind === 'autosave') {
          space.changeRequest.revision = JSON.parse(body).changeRequest.revision;
          const cr = space.changeRequest;
          ledger.changeRequests.set(cr.id, { cr, space, marker: `autosave ${stamp}` });
        } else if (kind === 'rename') {
          ledger.titles.set(space.id, { space, title: `Space renamed ${stamp}` });
        }
      },
    },
  ];
}

type MixedToken = MixedOrg['tokens'][number];

/**
 * After a run: targets whose write was cut off (in flight when the run stopped) are read again, so
 * that the next run's `If-Match` names the change request's real revision; they leave the ledger's
 * record of last writes (what they hold was not answered to the bench).
 */
export async function settleLedger(baseUrl: string, world: MixedWorld, ledger: WriteLedger): Promise<void> {
  const lost = [...ledger.busy, ...ledger.unknown];
  ledger.busy.clear();
  ledger.unknown.clear();
  const spaces = world.organizations.flatMap((o) => o.spaces);
  const revisionOf = async (space: MixedSpace): Promise<string> => {
    const id = space.changeRequest.id;
    const response = await fetch(`${baseUrl}/v1/spaces/${space.id}/change-requests/${id}`, {
      headers: { authorization: `Bearer ${world.adminToken}` },
    });
    if (response.status !== 200) throw new Error(`GET change request ${id} answered ${response.status}`);
    return ((await response.json()) as { revision: string }).revision;
  };
  const lostSpaces: MixedSpace[] = [];
  for (const target of lost) {
    const [type, id] = target.split(':') as [string, string];
    if (type === 'space') ledger.titles.delete(id);
    else ledger.changeRequests.delete(id);
    const space = type === 'cr' ? spaces.find((s) => s.changeRequest.id === id) : undefined;
    if (space) lostSpaces.push(space);
  }
  if (lostSpaces.length === 0) return;
  // A cut-off write may still be running on a busy machine: read until the revisions hold still.
  for (let attempt = 0; attempt < 10; attempt++) {
    await sleep(500);
    let moved = false;
    for (const space of lostSpaces) {
      const revision = await revisionOf(space);
      if (revision !== space.changeRequest.revision) moved = true;
      space.changeRequest.revision = revision;
    }
    if (!moved && attempt > 0) return;
  }
}
