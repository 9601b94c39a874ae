/**
 * fast-check arbitrary of the official table block (`DocumentBlockTable`): columns of every kind
 * (`DocumentTableDefinition*`), some hidden (defined, not in the view), in any view order, with
 * widths; records in any key order with `orderIndex`es that may tie; cells that name a fragment,
 * hold a value, `null` or nothing; fragments in any order, some held by no visible cell; grid and
 * cards views with their options; `cellMerges`, `fullWidth`, `search`.
 */
import fc from 'fast-check';

type Arb = fc.Arbitrary<unknown>;
type Value = Record<string, unknown>;

export interface TableParts {
  /** A block a text cell's fragment holds. */
  cell: Arb;
  /** A content reference (`ContentRef`), and the file and URL ones images take. */
  ref: Arb;
  imageRef: Arb;
  id: fc.Arbitrary<string>;
  str: fc.Arbitrary<string>;
}

const small = <T>(arb: fc.Arbitrary<T>, min = 0) => fc.array(arb, { minLength: min, maxLength: 3 });
const optional = (required: Record<string, Arb>, rest: Record<string, Arb> = {}): Arb =>
  fc.record({ ...required, ...rest }, { requiredKeys: Object.keys(required), noNullPrototype: true });

/** Each column kind: the rest of its definition, and the values its cells take. */
function kinds({ ref, imageRef, id, str }: TableParts): Record<string, { definition: Arb; value: Arb }> {
  const color = fc.constantFrom('blue', 'green', '#ff0000');
  const number = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  );
  return {
    text: {
      definition: optional(
        { textAlignment: fc.constantFrom('left', 'center', 'right') },
        { verticalAlignment: fc.constantFrom('top', 'middle', 'bottom') },
      ),
      value: fc.constant(undefined),
    },
    number: { definition: fc.constant({}), value: number },
    checkbox: { definition: fc.constant({}), value: fc.boolean() },
    files: { definition: fc.constant({}), value: small(id) },
    users: { definition: optional({ multiple: fc.boolean() }), value: small(id) },
    rating: { definition: optional({ max: fc.integer({ min: 1, max: 10 }) }), value: fc.integer({ min: 0, max: 10 }) },
    select: {
      definition: optional({ multiple: fc.boolean(), options: small(optional({ value: id, label: str, color })) }),
      value: small(id),
    },
    'content-ref': { definition: fc.constant({}), value: ref },
    image: {
      definition: fc.constant({}),
      value: fc.oneof(
        imageRef,
        optional({ ref: imageRef }, { objectFit: fc.constantFrom('contain', 'fill', 'cover'), alt: str }),
      ),
    },
  };
}

type Cell = { value?: unknown; fragment?: Value };

export function tableArbitrary(parts: TableParts): Arb {
  const { cell, id, str } = parts;
  const byKind = kinds(parts);
  const fragment = (nodes: Arb) =>
    optional({ object: fc.constant('fragment'), nodes }, { key: id, type: fc.constant('table-cell') });
  const textCell: fc.Arbitrary<Cell> = fc.oneof(
    { weight: 6, arbitrary: fragment(small(cell, 1)).map((f) => ({ fragment: f as Value })) },
    { weight: 1, arbitrary: fragment(fc.constant([])).map((f) => ({ fragment: f as Value })) },
    { weight: 1, arbitrary: fc.constantFrom<Cell>({}, { value: null }) },
    { weight: 1, arbitrary: id.map((v) => ({ value: `missing-${v}` })) },
  );
  const valueCell = (kind: string): fc.Arbitrary<Cell> =>
    fc.oneof(
      { weight: 4, arbitrary: (byKind[kind] as { value: Arb }).value.map((value) => ({ value })) },
      { weight: 1, arbitrary: fc.constantFrom<Cell>({}, { value: null }) },
    );
  // Text columns, the ones edited as text, are drawn as often as all the others.
  const kind = fc.oneof(fc.constant('text'), fc.constantFrom(...Object.keys(byKind)));
  const column = fc.record({ id, title: str, kind, visible: fc.boolean() });
  const record = fc.record({ id, orderIndex: fc.stringMatching(/^[0-9A-Za-z]{1,2}$/) });
  return fc
    .record({
      columns: fc.uniqueArray(column, { selector: (c) => c.id, minLength: 1, maxLength: 4 }),
      rows: fc.uniqueArray(record, { selector: (r) => r.id, maxLength: 3 }),
    })
    .chain(({ columns, rows }) => {
      const shown = columns.filter((c, i) => c.visible || i === 0).map((c) => c.id);
      return fc
        .record({
          definitions: fc.tuple(...columns.map((c) => (byKind[c.kind] as { definition: Arb }).definition)),
          cells: fc.tuple(
            ...rows.map(() => fc.tuple(...columns.map((c) => (c.kind === 'text' ? textCell : valueCell(c.kind))))),
          ),
          order: fc.shuffledSubarray(shown, { minLength: shown.length }),
          orphans: small(fragment(small(cell)).map((f) => f as Value)),
          orphanIds: small(id),
          shuffle: fc.nat(),
          view: fc.oneof(
            optional(
              { type: fc.constant('grid'), hideHeader: fc.boolean() },
              {
                columnWidths: fc.constant(true),
                stickyHeader: fc.boolean(),
                stickyFirstColumn: fc.boolean(),
                useNewSizing: fc.boolean(),
              },
            ),
            optional(
              { type: fc.constant('cards'), cardSize: fc.constantFrom('medium', 'large') },
              {
                targetDefinition: fc.constantFrom(...columns.map((c) => c.id)),
                coverDefinition: fc.constantFrom(...columns.map((c) => c.id)),
                hideColumnTitle: fc.boolean(),
                wrap: fc.boolean(),
              },
            ),
          ),
          options: optional(
            {},
            {
              fullWidth: fc.boolean(),
              search: fc.boolean(),
              cellMerges: small(
                optional({
                  anchor: optional({ record: id, column: id }),
                  rowSpan: fc.integer({ min: 1, max: 3 }),
                  colSpan: fc.integer({ min: 1, max: 3 }),
                }),
              ),
            },
          ),
          key: fc.option(id, { nil: undefined }),
        })
        .map((drawn) => build(columns, rows, drawn as Drawn));
    });
}

type Column = { id: string; title: string; kind: string };
type Drawn = {
  definitions: Value[];
  cells: Cell[][];
  order: string[];
  orphans: Value[];
  orphanIds: string[];
  shuffle: number;
  view: Value;
  options: Value;
  key?: string;
};

/** A table block of the drawn parts: fragments named `<record>-<column>` (ids hold no "-"), as the importer names them. */
function build(columns: Column[], rows: Array<{ id: string; orderIndex: string }>, drawn: Drawn): Value {
  const fragments: Value[] = [];
  const records = rows.map((row, r) => {
    const values: Value = {};
    columns.forEach((column, c) => {
      const cell = drawn.cells[r]?.[c] ?? {};
      if (cell.fragment) {
        const name = `${row.id}-${column.id}`;
        fragments.push({ ...cell.fragment, fragment: name });
        values[column.id] = name;
      } else if ('value' in cell) values[column.id] = cell.value;
    });
    return [row.id, { orderIndex: row.orderIndex, values }] as const;
  });
  drawn.orphans.forEach((orphan, i) => {
    const name = drawn.orphanIds[i];
    fragments.push(name === undefined ? orphan : { ...orphan, fragment: name });
  });
  // Fragments in any order: a rotation, then every other one swapped.
  const turn = fragments.length > 0 ? drawn.shuffle % fragments.length : 0;
  const shuffled = [...fragments.slice(turn), ...fragments.slice(0, turn)];
  if (drawn.shuffle % 2 === 1)
    for (let i = 0; i + 1 < shuffled.length; i += 2)
      shuffled.splice(i, 2, shuffled[i + 1] as Value, shuffled[i] as Value);
  const view: Value = { ...drawn.view, columns: drawn.order };
  if (view.columnWidths === true) {
    view.columnWidths = Object.fromEntries(columns.map((column, i) => [column.id, 10 + i * 15.5]));
  }
  return {
    object: 'block',
    type: 'table',
    ...(drawn.key === undefined ? {} : { key: drawn.key }),
    isVoid: true,
    data: {
      view,
      records: Object.fromEntries(records),
      definition: Object.fromEntries(
        columns.map((column, i) => [
          column.id,
          { id: column.id, title: column.title, type: column.kind, ...drawn.definitions[i] },
        ]),
      ),
      ...drawn.options,
    },
    fragments: shuffled,
  };
}
