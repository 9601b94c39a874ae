/**
 * Which schemas the API reference (/docs) lists once, under a name, and links to from everywhere
 * else: the document's components, and every object shape of at least MIN_FIELDS fields (counting
 * nested ones) that the page would otherwise show in more than one place. The routes' schemas are
 * written inline (a Space appears in some 30 operations, a site's customization in 8), so listing each
 * where it occurs made a 1.8 MB page; named once, the page is a fraction of that.
 *
 * A shape is named after its `object` constant (`space` gives `Space`), else after the field or the
 * operation it was first found in; a name already taken gets a number.
 */
import {
  contents,
  element,
  enumValues,
  objectFields,
  type Schema,
  type SchemaNames,
  withoutNull,
} from './reference-schema.js';

/** Shapes with fewer fields (counting nested ones) are shown where they occur: a link would save little. */
const MIN_FIELDS = 5;

/** Where a schema is met on the page, with a name for it should it be listed on its own. */
export interface SchemaRoot {
  schema: Schema;
  name: string;
}

export interface NamedSchemas extends SchemaNames {
  /** Every named schema, by name. */
  list: [string, Schema][];
}

/** `site-space` or `gitSync` as `SiteSpace` or `GitSync`. */
function pascal(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('') || 'Shape';
}

/** The name a shape would be listed under: its `object` constant, else where it was found. */
function nameHint(schema: Schema, where: string): string {
  const object = objectFields(schema)?.properties.find(([name]) => name === 'object')?.[1];
  const values = object ? enumValues(object) : null;
  return pascal(values?.length === 1 && typeof values[0] === 'string' ? values[0] : where);
}

/**
 * Walks what the page shows of `schema`: `enter` is called on each object shape with the name it would
 * get, and says whether to look inside it.
 */
function walk(schema: Schema, where: string, enter: (shape: Schema, where: string) => boolean): void {
  const target = element(schema);
  if (objectFields(target) && !enter(target, where)) return;
  const found = contents(target);
  if (found?.kind === 'fields') for (const f of found.fields) walk(withoutNull(f.schema).schema, f.name, enter);
  if (found?.kind === 'shapes') for (const shape of found.shapes) walk(shape, where, enter);
}

export function nameSchemas(components: [string, Schema][], roots: SchemaRoot[]): NamedSchemas {
  const keys = new WeakMap<Schema, string>();
  const keyOf = (schema: Schema) => {
    let key = keys.get(schema);
    if (key === undefined) {
      key = JSON.stringify(schema);
      keys.set(schema, key);
    }
    return key;
  };
  const all: SchemaRoot[] = [...components.map(([name, schema]) => ({ name, schema })), ...roots];

  // Every place each shape occurs, looking inside every occurrence; and the fields it has.
  const places = new Map<string, number>();
  const weights = new Map<string, number>();
  const weight = (schema: Schema): number => {
    const key = keyOf(schema);
    let total = weights.get(key);
    if (total === undefined) {
      total = 0;
      const found = contents(schema);
      if (found?.kind === 'fields')
        for (const f of found.fields) total += 1 + weight(element(withoutNull(f.schema).schema));
      if (found?.kind === 'shapes') for (const shape of found.shapes) total += weight(element(shape));
      weights.set(key, total);
    }
    return total;
  };
  for (const root of all) {
    walk(root.schema, root.name, (shape) => {
      places.set(keyOf(shape), (places.get(keyOf(shape)) ?? 0) + 1);
      return true;
    });
  }

  // The components, then the shapes that would be shown more than once. Counted again looking inside
  // each listed shape once only: a shape found only inside another listed one is shown once anyway.
  const names = new Map<string, string>(components.map(([name, schema]) => [keyOf(schema), name]));
  const candidates = new Set(names.keys());
  for (const [key, count] of places) if (count > 1) candidates.add(key);
  const shown = new Map<string, { count: number; where: string; schema: Schema }>();
  for (const root of all) {
    walk(root.schema, root.name, (shape, where) => {
      const key = keyOf(shape);
      if (!candidates.has(key)) return true;
      const seen = shown.get(key);
      if (seen) seen.count++;
      else shown.set(key, { count: 1, where, schema: shape });
      return !seen;
    });
  }
  const taken = new Set(names.values());
  for (const [key, { count, where, schema }] of shown) {
    if (names.has(key) || count < 2 || weight(schema) < MIN_FIELDS) continue;
    const hint = nameHint(schema, where);
    let name = hint;
    for (let n = 2; taken.has(name); n++) name = `${hint}${n}`;
    taken.add(name);
    names.set(key, name);
  }

  const byName = new Map<string, Schema>(components.map(([name, schema]) => [name, schema]));
  for (const [key, { schema }] of shown) {
    const name = names.get(key);
    if (name && !byName.has(name)) byName.set(name, schema);
  }
  return {
    nameOf: (schema) => (objectFields(schema) ? (names.get(keyOf(schema)) ?? null) : null),
    list: [...byName].sort(([a], [b]) => a.localeCompare(b, 'en')),
  };
}
