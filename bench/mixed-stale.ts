/**
 * The stale check at the end of the mixed traffic on a WORKERS=2 server: for a sample of the targets
 * written during the run (the last answered write of each: a change request's revision and the
 * marker its page holds, a space's title), each is read with every token of its organization (the
 * response cache keeps answers per token) through both worker processes, and every answer that does
 * not show the last write is counted as stale.
 *
 * Besides, a few targets are written after both processes have them in their caches (read with
 * every token through both), so the check does not depend on how many writes the load got through.
 *
 * Which process answers: the server runs with BENCH_TAG_PROCESS=1 (bench/instrument.mjs adds the
 * answering process's id as `x-bench-pid`), and each read opens a new connection, which the cluster
 * hands to its workers in turn; reads are repeated until both processes have answered.
 */
import http from 'node:http';
import { MARKER, type MixedOrg, type MixedSpace, type MixedWorld } from './mixed-seed.js';
import { WriteLedger } from './mixed-traffic.js';
import { sleep } from './util.js';

type MixedToken = MixedOrg['tokens'][number];

/**
 * How long after the last write the check reads: other processes learn of a commit within
 * milliseconds (a PostgreSQL notification, docs/operating.md#processes-and-caches).
 */
const SETTLE_MS = 100;
/** Spaces renamed and autosaved after both processes cached them (one per organization). */
export const WARMED_TARGETS = 10;

export interface StaleCheck {
  /** Targets checked (change requests, spaces). */
  targets: number;
  reads: number;
  stale: number;
  /** Processes that answered the check's reads. */
  processes: number;
  /** (target, token) pairs for which only one process could be reached. */
  oneProcessOnly: number;
  examples: string[];
}

/** A GET on a connection of its own: status, JSON body and the answering process. */
function freshGet(url: string, token: string): Promise<{ status: number; body: any; pid: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(text),
          pid: String(response.headers['x-bench-pid']),
        });
      });
    });
    request.on('error', reject);
  });
}

/** A check's reads: one target, read with each of its organization's tokens through both processes. */
interface Probe {
  name: string;
  url: string;
  organizationId: string;
  shows: (body: any) => boolean;
}

/** The probes of what the ledger says each target's last write left. */
function probesOf(baseUrl: string, ledger: WriteLedger, sample: number): Probe[] {
  const probes: Probe[] = [];
  for (const { cr, space, marker } of [...ledger.changeRequests.values()].slice(-sample)) {
    const base = `${baseUrl}/v1/spaces/${space.id}/change-requests/${cr.id}`;
    probes.push({
      name: `change request ${cr.id} revision`,
      url: base,
      organizationId: space.organizationId,
      shows: (body) => body.revision === cr.revision,
    });
    probes.push({
      name: `change request ${cr.id} page`,
      url: `${base}/content/page/${cr.pageId}`,
      organizationId: space.organizationId,
      shows: (body) => JSON.stringify(body.document).includes(marker),
    });
  }
  for (const { space, title } of [...ledger.titles.values()].slice(-sample)) {
    probes.push({
      name: `space ${space.id} title`,
      url: `${baseUrl}/v1/spaces/${space.id}`,
      organizationId: space.organizationId,
      shows: (body) => body.title === title,
    });
  }
  return probes;
}

/**
 * Writes after warming: `count` spaces (one per organization) are first read through both processes
 * with every token (so both hold them in their response caches), then renamed and autosaved once
 * each through whichever process takes the connection; the ledger records what they left.
 */
async function writeAfterWarming(
  baseUrl: string,
  world: MixedWorld,
  ledger: WriteLedger,
  count: number,
  read: (probe: Probe) => Promise<unknown>,
): Promise<number> {
  const spaces = world.organizations.slice(0, count).map((o) => o.spaces[o.spaces.length - 1] as MixedSpace);
  const warm = new WriteLedger();
  for (const space of spaces) {
    warm.titles.set(space.id, { space, title: '' });
    warm.changeRequests.set(space.changeRequest.id, { cr: space.changeRequest, space, marker: '' });
  }
  for (const probe of probesOf(baseUrl, warm, count)) await read({ ...probe, shows: () => true });
  for (const [i, space] of spaces.entries()) {
    const org = world.organizations.find((o) => o.id === space.organizationId) as MixedOrg;
    const [admin, editor] = org.tokens as [MixedToken, MixedToken];
    const call = async (method: string, path: string, token: string, body: string, ifMatch?: string) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(ifMatch ? { 'if-match': ifMatch } : {}),
        },
        body,
      });
      if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}`);
      return response.json() as Promise<any>;
    };
    const title = `Space renamed after warming ${i}`;
    await call('PATCH', `/v1/spaces/${space.id}`, admin.token, JSON.stringify({ title }));
    ledger.titles.set(space.id, { space, title });
    const cr = space.changeRequest;
    const marker = `autosave after warming ${i} ${Date.now()}`;
    const document = world.documentTemplate.replace(MARKER, marker);
    const answer = await call(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      editor.token,
      `{"changes":[{"operation":"update_page","page":"${cr.pageId}","document":{"document":${document}}}]}`,
      `"${cr.revision}"`,
    );
    cr.revision = answer.changeRequest.revision;
    ledger.changeRequests.set(cr.id, { cr, space, marker });
  }
  return spaces.length;
}

/**
 * The check: the last {@link sample} targets the load wrote and {@link warmed} more written after
 * warming both processes' caches, each read with every token of its organization through both
 * processes, {@link SETTLE_MS} after the last write.
 */
export async function checkStale(
  baseUrl: string,
  world: MixedWorld,
  ledger: WriteLedger,
  sample = 40,
  warmed = WARMED_TARGETS,
): Promise<StaleCheck> {
  const tokensOf = new Map(world.organizations.map((o) => [o.id, o.tokens.map((t) => t.token)]));
  const result: StaleCheck = { targets: 0, reads: 0, stale: 0, processes: 0, oneProcessOnly: 0, examples: [] };
  const pids = new Set<string>();
  const read = async (probe: Probe) => {
    for (const token of tokensOf.get(probe.organizationId) ?? []) {
      const seen = new Set<string>();
      for (let attempt = 0; attempt < 6 && seen.size < 2; attempt++) {
        const { status, body, pid } = await freshGet(probe.url, token);
        result.reads++;
        seen.add(pid);
        pids.add(pid);
        if (status !== 200) throw new Error(`stale check: GET ${probe.url} answered ${status}`);
        if (!probe.shows(body)) {
          result.stale++;
          if (result.examples.length < 5) result.examples.push(`${probe.name} (process ${pid})`);
        }
      }
      if (seen.size < 2) result.oneProcessOnly++;
    }
  };
  const fromLoad = new WriteLedger();
  for (const [k, v] of [...ledger.changeRequests].slice(-sample)) fromLoad.changeRequests.set(k, v);
  for (const [k, v] of [...ledger.titles].slice(-sample)) fromLoad.titles.set(k, v);
  result.targets = fromLoad.changeRequests.size + fromLoad.titles.size;
  result.targets += 2 * (await writeAfterWarming(baseUrl, world, fromLoad, warmed, read));
  result.reads = 0;
  result.oneProcessOnly = 0;
  await sleep(SETTLE_MS);
  for (const probe of probesOf(baseUrl, fromLoad, sample + warmed)) await read(probe);
  result.processes = pids.size;
  return result;
}
