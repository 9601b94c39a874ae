/**
 * The benchmark's ceilings: a bare Fastify server with no logging, validation, authentication or
 * database. `GET /` answers `{"hello":"world"}` (the ceiling of single reads). With
 * BENCH_PAYLOADS (a JSON file of `{path, schema, body}`), each path answers that body through the
 * same response schema Bindery's route declares (the ceiling of that list: same bytes, same
 * fast-json-stringify serializer).
 *
 * Run by `npm run bench` in its own process (startCeiling, bench/processes.ts):
 * `node --import tsx bench/ceiling.ts` with PORT set.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import { PagesList, RevisionPage } from '../src/api/content/schemas.js';
import { Member } from '../src/api/members/schemas.js';
import { Site } from '../src/api/sites/schemas.js';
import { Space } from '../src/api/spaces/schemas.js';
import { Team } from '../src/api/teams/schemas.js';
import { PagedList } from '../src/lib/paging.js';

/** The response schema of each list route the bench loads (kept in step with the routes). */
export const LIST_SCHEMAS: Record<string, TSchema> = {
  members: PagedList(Member),
  teams: PagedList(Team),
  spaces: PagedList(Space),
  sites: PagedList(Site),
  pages: PagesList,
};

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) {
  process.stderr.write('ceiling: PORT must be set to a port number\n');
  process.exit(2);
}

const app = Fastify({ logger: false });
app.addSchema(RevisionPage);
app.get('/', async () => ({ hello: 'world' }));
const payloads = process.env.BENCH_PAYLOADS
  ? (JSON.parse(fs.readFileSync(process.env.BENCH_PAYLOADS, 'utf8')) as {
      path: string;
      schema: string;
      body: unknown;
    }[])
  : [];
for (const { path, schema, body } of payloads) {
  const response = LIST_SCHEMAS[schema];
  if (!response) throw new Error(`ceiling: no schema ${schema}`);
  app.get(path, { schema: { response: { 200: response } } }, async () => body);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port, host: '127.0.0.1' });
