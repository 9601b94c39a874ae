/**
 * Write paths: timed one at a time (each changes data, so autocannon cannot repeat them),
 * BENCH_WRITES operations each, with the server's CPU time and SQL statements around each.
 */
import type { Server } from './processes.js';
import { Api, type Seeded } from './seed.js';
import { WRITES } from './settings.js';

export interface WriteRow {
  endpoint: string;
  ms: number;
  cpuPerRequest: number;
  queriesPerRequest: number;
}

export async function measureWrites(server: Server, s: Seeded): Promise<WriteRow[]> {
  const api = new Api(server.baseUrl, s.token);
  const space = s.contentSpaceId;
  const rows: WriteRow[] = [];
  const timed = async (
    endpoint: string,
    prepare: (i: number) => Promise<unknown>,
    run: (p: any) => Promise<unknown>,
  ) => {
    let ms = 0;
    let cpu = 0;
    let queries = 0;
    for (let i = 0; i < WRITES; i++) {
      const prepared = await prepare(i);
      const before = await server.stats();
      const started = performance.now();
      await run(prepared);
      ms += performance.now() - started;
      const after = await server.stats();
      if (before && after) {
        cpu += after.cpuMicros - before.cpuMicros;
        queries += after.queries - before.queries;
      }
    }
    rows.push({ endpoint, ms: ms / WRITES, cpuPerRequest: cpu / WRITES, queriesPerRequest: queries / WRITES });
  };
  await timed(
    'POST /orgs/{id}/collections',
    async () => undefined,
    () => api.call('POST', `/orgs/${s.organizationId}/collections`, { title: 'Timed collection' }),
  );
  const cr = await api.call('POST', `/spaces/${space}/change-requests`, { subject: 'Timed edits' });
  await timed(
    'POST /spaces/{id}/change-requests/{crId}/content (update one page)',
    async () => undefined,
    () =>
      api.call('POST', `/spaces/${space}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'update_page', page: s.pageId, document: { markdown: `Edited ${Math.random()}\n` } }],
      }),
  );
  await timed(
    'POST /spaces/{id}/change-requests/{crId}/merge (one page changed)',
    async (i) => {
      const next = await api.call('POST', `/spaces/${space}/change-requests`, { subject: `Merge ${i}` });
      await api.call('POST', `/spaces/${space}/change-requests/${next.id}/content`, {
        changes: [{ operation: 'update_page', page: s.pageId, title: `Merged ${i}` }],
      });
      return next.id;
    },
    (id: string) => api.call('POST', `/spaces/${space}/change-requests/${id}/merge`, {}),
  );
  return rows;
}
