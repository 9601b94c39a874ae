/**
 * What the database holds: every table's rows and the bytes of their text and binary columns (the
 * data, not the pages holding it). Tests compare readings taken before and after some writes
 * (test/api/autosave-growth.test.ts); the bench measures per table (bench/traffic-autosave.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

export interface StorageReading {
  rows: number;
  bytes: number;
}

/** Every table's rows, and the bytes of their text and binary columns (the data, not the pages holding it). */
export async function readStorage(db: Db, postgres: boolean): Promise<StorageReading> {
  const tables = postgres
    ? await sql<{ table: string; column: string }>`
        select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = current_schema() and data_type in ('text', 'bytea', 'character varying')`.execute(db)
    : await sql<{ table: string; column: string }>`
        select m.name as "table", p.name as "column" from sqlite_master m, pragma_table_info(m.name) p
        where m.type = 'table' and m.name not like 'sqlite_%' and p.type in ('TEXT', 'BLOB', 'text', 'blob')`.execute(
        db,
      );
  const columns = new Map<string, string[]>();
  for (const { table, column } of tables.rows) columns.set(table, [...(columns.get(table) ?? []), column]);
  let rows = 0;
  let bytes = 0;
  for (const [table, names] of columns) {
    if (table === 'kysely_migration' || table === 'kysely_migration_lock') continue;
    const length = names.map((c) =>
      postgres ? `coalesce(octet_length("${c}"),0)` : `coalesce(length(cast("${c}" as blob)),0)`,
    );
    const row = await sql<{ n: number; b: number | string | null }>`
      select count(*) as n, sum(${sql.raw(length.join(' + '))}) as b from ${sql.id(table)}`.execute(db);
    rows += Number(row.rows[0]?.n ?? 0);
    bytes += Number(row.rows[0]?.b ?? 0);
  }
  return { rows, bytes };
}
