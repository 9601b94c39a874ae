/**
 * The scopes a committed write counts on (src/db/write-scope.ts): what its unit of work declared,
 * only when that covers every table it wrote; else global (null), which invalidates everything.
 */
import { describe, expect, it } from 'vitest';
import {
  declareMemberWrite,
  declareOrganizationWrite,
  inWriteScope,
  scopesAtCommit,
  WrittenTables,
} from '../../src/db/write-scope.js';

function written(...statements: Array<[string, number]>): WrittenTables {
  const tables = new WrittenTables();
  for (const [sql, rows] of statements) tables.note(sql, rows);
  return tables;
}

const updateSpace: [string, number] = ['update "spaces" set "title" = ? where "id" = ?', 1];
const updateMember: [string, number] = ['update "members" set "role" = $1 where "organization_id" = $2', 1];

describe('scopes at commit', () => {
  it("counts an organization's write on the organization its event names", () => {
    const scopes = inWriteScope(() => {
      declareOrganizationWrite('a');
      return scopesAtCommit(written(updateSpace));
    });
    // A space's row written without the space declared as the part changed: the organization's base too.
    expect(scopes).toEqual(['org:a', 'orgbase:a']);
  });

  it('counts a member row on its organization and its user', () => {
    const scopes = inWriteScope(() => {
      declareMemberWrite('a', 'u');
      return scopesAtCommit(written(updateMember, updateSpace));
    });
    expect(scopes).toEqual(['org:a', 'orgbase:a', 'user:u']);
  });

  it('is global when the declarations do not cover what was written', () => {
    // No unit of work, or nothing declared in it.
    expect(scopesAtCommit(written(updateSpace))).toBeNull();
    expect(inWriteScope(() => scopesAtCommit(written(updateSpace)))).toBeNull();
    // More member rows than members declared.
    const twoRows: [string, number] = [updateMember[0], 2];
    expect(
      inWriteScope(() => {
        declareMemberWrite('a', 'u');
        return scopesAtCommit(written(twoRows));
      }),
    ).toBeNull();
    // Tables read across organizations, tables not listed, statements whose table is not plain.
    for (const sql of [
      'update "users" set "display_name" = ? where "id" = ?',
      'update "api_tokens" set "revoked_at" = ? where "id" = ?',
      'insert into "settings" ("key", "value") values (?, ?)',
      'delete from "organizations" where "id" = ?',
      'update "content_documents" set "body" = ?',
      'with x as (update "spaces" set "title" = $1 returning *) select * from x',
      'create table t (id int)',
    ]) {
      const scopes = inWriteScope(() => {
        declareOrganizationWrite('a');
        return scopesAtCommit(written([sql, 1]));
      });
      expect(scopes, sql).toBeNull();
    }
  });

  it('needs no scope for new content-addressed rows', () => {
    expect(scopesAtCommit(written(['insert into "content_documents" ("hash", "body") values (?, ?)', 1]))).toEqual([]);
  });
});
