/** Starts the HTTP server and shuts it down gracefully (drain in-flight requests, close the DB). */
import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import type { Config } from './config.js';

/** The one human line of a start (the JSON logs are for machines): where to send requests and read the reference. */
export function listeningLine(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const base = `http://${host}:${address.port}`;
  return `Bindery listening on ${base} — API reference: ${base}/docs`;
}

export async function startServer(config: Config): Promise<void> {
  const app = await buildApp({ config });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  // stderr: stdout carries the JSON log lines, which log collectors parse.
  process.stderr.write(`${listeningLine(app.server.address() as AddressInfo)}\n`);
}
