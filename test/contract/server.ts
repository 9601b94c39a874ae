/**
 * A real, listening Bindery server for contract tests: the test harness's app (on this run's
 * database) listening on a free port of 127.0.0.1, official `GitBookAPI` clients pointed at it, and
 * the organizations, members and outsiders the tests start from, each with its official client.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
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

/** The official `MemberRole` (a string enum of the client). */
export type MemberRole = NonNullable<
  NonNullable<Parameters<GitBookAPI['spaces']['listPermissionsAggregateInSpace']>[1]>['role']
>;

export interface Org {
  id: string;
  admin: TestUser;
  /** The official client, authenticated as the organization's admin. */
  api: GitBookAPI;
}

/**
 * A new organization administered by a new user, with an official client for that admin, on `server`
 * (default: the one {@link useContractServer} started for this file).
 */
export async function newOrg(server: ContractServer = contractServer()): Promise<Org> {
  const { id, admin } = await server.harness.org();
  return { id, admin, api: server.client(admin.token) };
}

/** A new member of `organizationId` with `role` (null: guest), with an official client, on `server`. */
export async function newMember(
  organizationId: string,
  role: Parameters<Harness['member']>[1],
  server: ContractServer = contractServer(),
) {
  const member = await server.harness.member(organizationId, role);
  return { ...member, api: server.client(member.token) };
}

/** A new user outside every organization, with an official client, on `server`. */
export async function newOutsider(server: ContractServer = contractServer()) {
  const user = await server.harness.user();
  return { ...user, api: server.client(user.token) };
}

/** A short random string, for titles and names that must not collide. */
export const unique = () => Math.random().toString(36).slice(2, 10);
