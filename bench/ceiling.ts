/**
 * The benchmark's ceiling: a bare Fastify server with one JSON route and no logging, validation,
 * authentication or database. Bindery's endpoints are reported as a fraction of its throughput.
 *
 * Run by bench/run.ts in its own process: `node --import tsx bench/ceiling.ts` with PORT set.
 */
import Fastify from 'fastify';

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) {
  process.stderr.write('ceiling: PORT must be set to a port number\n');
  process.exit(2);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port, host: '127.0.0.1' });
