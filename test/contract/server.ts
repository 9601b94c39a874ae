/**
 * A real, listening Bindery server for contract tests: the test harness's app (on this run's
 * database) listening on a free port of 127.0.0.1, and official `GitBookAPI` clients pointed at it.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import type { GitBookAPI } from './official.js';
import { createContractClient } from './validate.js';

export interface ContractServer {
  harness: Harness;
  /** `http://127.0.0.1:<port>`; the client appends `/v1` itself. */
  endpoint: string;
  /** An official client authenticated with `token` (anonymous without). */
  client(token?: string): GitBookAPI;
  close(): Promise<void>;
}

/**
 * `overrides` go to `createHarness` (configuration, e.g. `jobConcurrency` and `fetchAllowPrivate` for
 * the background jobs that process OpenAPI sources).
 */
export async function startContractServer(overrides?: Parameters<typeof createHarness>[0]): Promise<ContractServer> {
  const harness = await createHarness(overrides);
  await harness.app.listen({ port: 0, host: '127.0.0.1' });
  const { address, port } = harness.app.server.address() as AddressInfo;
  const endpoint = `http://${address}:${port}`;
  return {
    harness,
    endpoint,
    client: (token) => createContractClient(endpoint, token),
    close: () => harness.close(),
  };
}

let current: ContractServer | undefined;

/**
 * Starts a contract server before the calling test file's tests and closes it after them (call it
 * once, at the top of the file), for helper modules that several test files share: they reach the
 * server through {@link contractServer}. Vitest runs each test file in its own module graph, so each
 * file has a server of its own.
 */
export function useContractServer(overrides?: Parameters<typeof createHarness>[0]): void {
  beforeAll(async () => {
    current = await startContractServer(overrides);
  });
  afterAll(async () => current?.close());
}

/** The server {@link useContractServer} started for this test file. */
export function contractServer(): ContractServer {
  if (!current) throw new Error('no contract server: call useContractServer() at the top of the test file');
  return current;
}
