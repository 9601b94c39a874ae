/**
 * Keyset pagination, the only way lists are paged: the cursor (`next.page`) records the sort key of
 * the last item returned, so a deep page costs what the first one does. `count` is the total number
 * of items the filters select.
 *
 * Default page size: {@link DEFAULT_LIMIT}; `limit` may be 0 to 1000 (0 returns only `count`).
 */
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type TSchema, Type } from 'typebox';
import { badRequest } from './errors.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** Querystring properties of every paged list. */
export const PageQuery = {
  page: Type.Optional(Type.String({ description: 'Cursor: the `next.page` of the previous result' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_LIMIT, description: `Page size (default ${DEFAULT_LIMIT})` }),
  ),
};

/** The querystring of a list that takes nothing but paging. */
export const ListQuery = Type.Object(PageQuery);

/** `{items, count, next?}` of `item`. */
export function PagedList<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    count: Type.Number(),
    next: Type.Optional(Type.Object({ page: Type.String() })),
  });
}

export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

type KeyValue = string | number;

/** One column of the sort order. Its values must be non-null (the query filters nulls out). */
export interface SortKey<Row> {
  /** Qualified column reference, e.g. `members.joined_at`. */
  column: string;
  direction: 'asc' | 'desc';
  /** Reads the key's value from a result row. */
  value: (row: Row) => KeyValue;
  /** The value's type (default `string`): a cursor carrying another type was not issued by us. */
  kind?: 'string' | 'number';
}

export function encodeCursor(values: KeyValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of a cursor; `kinds` gives the expected type of each (its length, the key count). */
export function decodeCursor(page: string, kinds: number | ReadonlyArray<'string' | 'number'>): KeyValue[] {
  const expected: ReadonlyArray<'string' | 'number' | 'any'> =
    typeof kinds === 'number' ? Array.from({ length: kinds }, () => 'any' as const) : kinds;
  try {
    const values: unknown = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (
      Array.isArray(values) &&
      values.length === expected.length &&
      values.every((v, i) =>
        expected[i] === 'any' ? typeof v === 'string' || typeof v === 'number' : typeof v === expected[i],
      )
    ) {
      return values as KeyValue[];
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest('querystring/page is not a cursor returned by this list');
}

/**
 * `(k1, k2, ...) after (v1, v2, ...)` in the order the keys give. When every key runs the same way
 * this is one row-value comparison, which both databases answer by seeking the index; mixed
 * directions are expanded into `k1 > v1 OR (k1 = v1 AND k2 > v2) ...`.
 */
function afterCursor<Row>(keys: SortKey<Row>[], values: KeyValue[]): Expression<SqlBool> {
  const direction = keys[0]?.direction;
  if (keys.every((k) => k.direction === direction)) {
    const cmp = direction === 'asc' ? sql`>` : sql`<`;
    const columns = sql.join(keys.map((k) => sql.ref(k.column)));
    return sql<SqlBool>`(${columns}) ${cmp} (${sql.join(values.map((v) => sql`${v}`))})`;
  }
  const alternatives = keys.map((key, i) => {
    const equalities = keys.slice(0, i).map((k, j) => sql`${sql.ref(k.column)} = ${values[j]}`);
    const cmp = key.direction === 'asc' ? sql`>` : sql`<`;
    const strict = sql`${sql.ref(key.column)} ${cmp} ${values[i]}`;
    return sql`(${sql.join([...equalities, strict], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;
}

/**
 * Runs `query` (filters applied, no order or limit yet) as one page plus a total count.
 * The last key must make the order total (usually the id).
 */
export async function paginate<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  keys: SortKey<Row>[],
  options: { page?: string; limit?: number },
  /** Counts the same rows more cheaply (e.g. without a join the filters do not need). */
  countRows?: () => Promise<number>,
): Promise<Page<Row>> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const countQuery = query.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('count'));
  let pageQuery = query;
  if (options.page) {
    const kinds = keys.map((k) => k.kind ?? 'string');
    pageQuery = pageQuery.where(afterCursor(keys, decodeCursor(options.page, kinds)));
  }
  for (const key of keys) pageQuery = pageQuery.orderBy(sql.ref(key.column), key.direction);

  const [count, rows] = await Promise.all([
    countRows
      ? countRows()
      : countQuery.executeTakeFirst().then((row) => Number((row as { count?: unknown } | undefined)?.count ?? 0)),
    limit === 0 ? Promise.resolve([] as Row[]) : pageQuery.limit(limit + 1).execute(),
  ]);
  return pageOf(rows, count, keys, limit);
}

/**
 * One page of a list whose page queries are precompiled (db/prepared.ts) instead of built per
 * request: `first` reads the first `limit` rows in the keys' order, `after` those after the
 * cursor's key values; `count` runs beside them. Same cursors, limits and page shape as
 * {@link paginate}.
 */
export async function keysetPage<Row>(
  keys: SortKey<Row>[],
  options: { page?: string; limit?: number },
  queries: {
    first(limit: number): Promise<Row[]>;
    after(limit: number, values: KeyValue[]): Promise<Row[]>;
    count(): Promise<number>;
  },
): Promise<Page<Row>> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const after = options.page
    ? decodeCursor(
        options.page,
        keys.map((k) => k.kind ?? 'string'),
      )
    : undefined;
  const page = (): Promise<Row[]> => {
    if (limit === 0) return Promise.resolve([]);
    return after ? queries.after(limit + 1, after) : queries.first(limit + 1);
  };
  const [count, rows] = await Promise.all([queries.count(), page()]);
  return pageOf(rows, count, keys, limit);
}

/** The page made of `rows` (up to `limit + 1` of them, in the keys' order: one more tells there is a next one). */
function pageOf<Row>(rows: Row[], count: number, keys: SortKey<Row>[], limit: number): Page<Row> {
  if (rows.length <= limit) return { items: rows, count };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as Row;
  return { items, count, next: { page: encodeCursor(keys.map((k) => k.value(last))) } };
}

/** Pages an in-memory list (for small computed lists) with the same cursor format. */
export function paginateArray<T>(
  all: T[],
  keyOf: (item: T) => KeyValue,
  options: { page?: string; limit?: number },
): Page<T> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  let start = 0;
  if (options.page) {
    const [after] = decodeCursor(options.page, 1);
    start = all.findIndex((item) => keyOf(item) === after) + 1;
    if (start === 0) throw badRequest('querystring/page is not a cursor returned by this list');
  }
  const items = limit === 0 ? [] : all.slice(start, start + limit);
  const last = items[items.length - 1];
  const more = limit > 0 && start + limit < all.length && last !== undefined;
  return more
    ? { items, count: all.length, next: { page: encodeCursor([keyOf(last)]) } }
    : { items, count: all.length };
}

/** Maps the items of a page, keeping its count and cursor. */
export function mapPage<T, U>(page: Page<T>, fn: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(fn) };
}
