/**
 * The stale check at the end of the mixed traffic on a WORKERS=2 server: for a sample of the targets
 * written during the run (the last answered write of each: a change request's revision and the
 * marker its page holds, a space's title), each is read with every token of its organization (the
 * response cache keeps answers per token) through both worker processes, and every answer that does
 * not show the last write is counted as stale.
 *
 * Which process answers: the server runs with BENCH_TAG_PROCESS=1 (bench/instrument.mjs adds the
 * answering process's id as `x-bench-pid`), and each read opens a new connection, which the cluster
 * hands to its workers in turn; reads are repeated until both processes have answered.
 */
import http from 'node:http';
import type { MixedWorld } from './mixed-seed.js';
import type { WriteLedger } from './mixed-traffic.js';

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

export async function checkStale(
  baseUrl: string,
  world: MixedWorld,
  ledger: WriteLedger,
  sample = 40,
): Promise<StaleCheck> {
  const tokensOf = new Map(world.organizations.map((o) => [o.id, o.tokens.map((t) => t.token)]));
  type Probe = { name: string; url: string; organizationId: string; shows: (body: any) => boolean };
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
  const result: StaleCheck = { targets: 0, reads: 0, stale: 0, processes: 0, oneProcessOnly: 0, examples: [] };
  result.targets = ledger.changeRequests.size > 0 ? Math.min(sample, ledger.changeRequests.size) : 0;
  result.targets += Math.min(sample, ledger.titles.size);
  const pids = new Set<string>();
  for (const probe of probes) {
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
  }
  result.processes = pids.size;
  return result;
}
