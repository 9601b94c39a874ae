/**
 * The read endpoints the bench loads, each with the ceiling it is compared with (a bare Fastify JSON
 * route for single reads, a bare route answering the same list payload through the same response
 * schema for lists), and how a group of them is measured beside its ceilings.
 */
import { expect200, type Measurement, measure } from './load.js';
import type { Server } from './processes.js';
import { PAGES, type Seeded } from './seed.js';
import { log } from './util.js';

/** Members per page of the member list (the deep page's number follows from it). */
export const PAGE_LIMIT = 100;

type Kind = 'single' | 'list';
export interface Endpoint {
  endpoint: string;
  kind: Kind;
  /** The list ceiling this endpoint is compared with (same payload, same schema). */
  ceiling?: string;
  path: string;
  check: (body: any) => string | undefined;
}

export interface Row {
  endpoint: string;
  kind: Kind;
  ceiling?: string;
  m: Measurement;
  /** Its ceiling, measured in the same rounds as it (interleaved), so the machine's drift cancels out. */
  reference: Measurement;
}

export function endpoints(s: Seeded, deepCursor: string): Endpoint[][] {
  const org = `/v1/orgs/${s.organizationId}`;
  const same = (field: string, value: string) => (b: any) => (b[field] === value ? undefined : `wrong ${field}`);
  const items = (n: number) => (b: any) =>
    b.items?.length === n ? undefined : `expected ${n} items, got ${b.items?.length}`;
  const members = `${org}/members?limit=${PAGE_LIMIT}`;
  return [
    [{ endpoint: 'GET /orgs/{id}', kind: 'single', path: org, check: same('id', s.organizationId) }],
    [
      {
        endpoint: 'GET /orgs/{id}/members/{userId}',
        kind: 'single',
        path: `${org}/members/${s.sampleUserId}`,
        check: same('id', s.sampleUserId),
      },
    ],
    [{ endpoint: 'GET /spaces/{id}', kind: 'single', path: `/v1/spaces/${s.spaceId}`, check: same('id', s.spaceId) }],
    [
      {
        endpoint: 'GET /orgs/{id}/sites/{siteId}',
        kind: 'single',
        path: `${org}/sites/${s.siteId}`,
        check: same('id', s.siteId),
      },
    ],
    [
      {
        endpoint: 'GET /collections/{id}',
        kind: 'single',
        path: `/v1/collections/${s.collectionId}`,
        check: same('id', s.collectionId),
      },
    ],
    [
      {
        endpoint: 'GET /spaces/{id}/change-requests/{crId}',
        kind: 'single',
        path: `/v1/spaces/${s.contentSpaceId}/change-requests/${s.changeRequestId}`,
        check: same('id', s.changeRequestId),
      },
    ],
    [
      {
        endpoint: 'GET /spaces/{id}/content/page/{pageId}',
        kind: 'single',
        path: `/v1/spaces/${s.contentSpaceId}/content/page/${s.pageId}`,
        check: same('id', s.pageId),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/members (page 1)',
        kind: 'list',
        ceiling: 'members',
        path: members,
        check: items(100),
      },
      {
        endpoint: 'GET /orgs/{id}/members (page 900)',
        kind: 'list',
        ceiling: 'members',
        path: `${members}&page=${encodeURIComponent(deepCursor)}`,
        check: items(100),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/teams',
        kind: 'list',
        ceiling: 'teams',
        path: `${org}/teams?limit=100`,
        check: items(s.teams),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/spaces',
        kind: 'list',
        ceiling: 'spaces',
        path: `${org}/spaces?limit=100`,
        check: items(100),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/sites',
        kind: 'list',
        ceiling: 'sites',
        path: `${org}/sites?limit=100`,
        check: items(100),
      },
    ],
    [
      {
        endpoint: 'GET /spaces/{id}/content/pages',
        kind: 'list',
        ceiling: 'pages',
        path: `/v1/spaces/${s.contentSpaceId}/content/pages`,
        check: (b) => (b.pages?.length === PAGES ? undefined : `expected ${PAGES} pages, got ${b.pages?.length}`),
      },
    ],
  ];
}

/** Walks the member list with `next.page` to the cursor of page `target`, checking the paging. */
export async function pageCursor(baseUrl: string, s: Seeded, target: number): Promise<string> {
  const url = `${baseUrl}/v1/orgs/${s.organizationId}/members?limit=${PAGE_LIMIT}`;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page < target; page++) {
    const body = await expect200(cursor ? `${url}&page=${encodeURIComponent(cursor)}` : url, s.token);
    if (body.count !== s.memberCount) throw new Error(`member count is ${body.count}, expected ${s.memberCount}`);
    for (const item of body.items as { id: string }[]) {
      if (seen.has(item.id)) throw new Error(`member ${item.id} listed twice (page ${page})`);
      seen.add(item.id);
    }
    cursor = body.next?.page;
    if (!cursor) throw new Error(`the member list ends at page ${page}, before page ${target}`);
  }
  if (!cursor) throw new Error('no cursor');
  return cursor;
}

/** The URL of the ceiling an endpoint is compared with: the bare JSON route, or its list's same-payload route. */
export function ceilingUrl(ceiling: Server, e: Pick<Endpoint, 'kind' | 'ceiling'>): string {
  return e.kind === 'list' ? `${ceiling.baseUrl}/${e.ceiling}` : `${ceiling.baseUrl}/`;
}

/**
 * Measures each group of endpoints, checking each answers 200 first. A group's endpoints and their
 * ceilings are loaded in the same interleaved rounds: a ratio compares two measurements seconds
 * apart, not minutes (this machine's speed drifts 10–20 % within a run).
 */
export async function measureReads(
  server: Server,
  ceiling: Server,
  groups: Endpoint[][],
  seeded: Seeded,
  label: string,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const group of groups) {
    for (const e of group) await expect200(server.baseUrl + e.path, seeded.token, e.check);
    log(`[${label}] ${group.map((e) => e.endpoint).join(' + ')}`);
    const references = [...new Set(group.map((e) => ceilingUrl(ceiling, e)))];
    const measured = await measure([
      ...group.map((e) => ({ server, url: server.baseUrl + e.path, token: seeded.token })),
      ...references.map((url) => ({ server: ceiling, url })),
    ]);
    for (const [i, e] of group.entries()) {
      const reference = measured[group.length + references.indexOf(ceilingUrl(ceiling, e))]!;
      rows.push({ endpoint: e.endpoint, kind: e.kind, ceiling: e.ceiling, m: measured[i]!, reference });
    }
  }
  return rows;
}
