/**
 * The operation table of docs/operations.md is the one `npm run operations` writes from the app's routes today,
 * and every operationId is written as a literal in the source, so that searching the code for it
 * finds its route.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  listOperations,
  OPERATIONS_PAGE,
  operationsTable,
  unwrittenOperationIds,
  withTable,
} from '../../scripts/operations.js';

/**
 * operationIds assembled at run time (declared in loops over templates): none may be, so that searching
 * the code for an operationId finds its declaration.
 */
const ALLOWED_UNWRITTEN: string[] = [];

let operations: Awaited<ReturnType<typeof listOperations>>;
beforeAll(async () => {
  operations = await listOperations();
}, 60_000);

describe('operations', () => {
  it('docs/operations.md lists every operation with its method, path and declaring file (npm run operations writes it)', () => {
    const page = readFileSync(OPERATIONS_PAGE, 'utf8');
    expect(OPERATIONS_PAGE.endsWith('/docs/operations.md')).toBe(true);
    expect(operations.length).toBeGreaterThan(120);
    expect(operations.filter((o) => o.file === '?')).toEqual([]);
    const table = operationsTable(operations);
    expect(table).toContain('| `getAuthenticatedUser` | GET | `/v1/user` | src/api/users/routes.ts |');
    expect(table).toContain(
      '| `inviteToCollection` | POST | `/v1/collections/{collectionId}/permissions` | src/api/grants/routes.ts |',
    );
    expect(withTable(page, table)).toBe(page);
  });

  it('has every operationId written as a literal in the source', () => {
    expect(unwrittenOperationIds(operations)).toEqual([...ALLOWED_UNWRITTEN].sort());
  });
});
