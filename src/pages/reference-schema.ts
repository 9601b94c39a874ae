/**
 * JSON Schemas of the API reference (/docs) as nested field lists: each field with its name, type,
 * whether it is required, its limits and its description, and inside it the fields of an object, of an
 * array's items, of a map's values or of each shape of a union. A body's own fields are shown; anything
 * deeper is folded in a <details>, which the browser neither lays out nor paints until it is opened,
 * so the page draws quickly however large the schemas are. A schema with a name (a `$ref` to a
 * component, or a shape found in several places, see reference-shapes.ts) is shown as a link to its
 * section of the page, where it is listed once; this also ends any recursion.
 */
import { escapeHtml } from './html.js';
import { anchors, codeValue, paragraphs } from './reference-text.js';

/** A JSON Schema as the OpenAPI document has it (only read, never trusted to be well formed). */
export type Schema = { readonly [key: string]: unknown };

/** The names under which schemas are listed once on the page (components and shared shapes). */
export interface SchemaNames {
  /** The name `schema` is listed under, null when it is shown where it occurs. */
  nameOf(schema: Schema): string | null;
}

/** Deeper than this, fields are no longer listed (the document has no schema nearly this deep). */
const MAX_DEPTH = 12;
const REF_PREFIX = '#/components/schemas/';

export const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const schemaList = (value: unknown): Schema[] | null =>
  Array.isArray(value) && value.length > 0 && value.every(isSchema) ? value : null;

/** The name of the component a `$ref` points at, null for any other schema. */
function refName(schema: Schema): string | null {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : null;
}

/** The shapes of a union (`anyOf`/`oneOf`), null when `schema` is none. */
function alternatives(schema: Schema): Schema[] | null {
  return schemaList(schema.anyOf) ?? schemaList(schema.oneOf);
}

type ObjectFields = { properties: [string, Schema][]; required: Set<string> } | null;
/** Read many times per schema while the page is written: kept per schema object. */
const objectFieldsOf = new WeakMap<Schema, ObjectFields>();

/** The properties and required names of an object schema, `allOf` merged in; null when it has none. */
export function objectFields(schema: Schema): ObjectFields {
  let found = objectFieldsOf.get(schema);
  if (found === undefined) {
    found = readObjectFields(schema);
    objectFieldsOf.set(schema, found);
  }
  return found;
}

function readObjectFields(schema: Schema): ObjectFields {
  if (!isSchema(schema.properties) && !schema.allOf) return null;
  const parts = [schema, ...(schemaList(schema.allOf) ?? [])];
  const properties: [string, Schema][] = [];
  const required = new Set<string>();
  for (const part of parts) {
    if (isSchema(part.properties)) {
      for (const [name, value] of Object.entries(part.properties)) if (isSchema(value)) properties.push([name, value]);
    }
    if (Array.isArray(part.required)) for (const name of part.required) required.add(String(name));
  }
  return properties.length > 0 ? { properties, required } : null;
}

/**
 * `schema` without its `null` alternative (`type: [x, 'null']`, or a union with `{type: 'null'}`),
 * and whether it had one: the field is then shown as `x | null`. A union of one shape and `null` gives
 * that shape itself (so that a named shape is still recognized); the union's own description and
 * default, which describe the field, are then in `outer`.
 */
export function withoutNull(schema: Schema): Nullable {
  // Kept per schema, so that the shape returned is the same object each time (and its own caches hold).
  let found = withoutNullOf.get(schema);
  if (found === undefined) {
    found = readNullable(schema);
    withoutNullOf.set(schema, found);
  }
  return found;
}

type Nullable = { schema: Schema; nullable: boolean; outer: Schema };
const withoutNullOf = new WeakMap<Schema, Nullable>();

function readNullable(schema: Schema): Nullable {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true, outer: {} };
  }
  const variants = alternatives(schema);
  const others = variants?.filter((v) => v.type !== 'null');
  if (!variants || !others || others.length === variants.length) return { schema, nullable: false, outer: {} };
  const key = schemaList(schema.anyOf) ? 'anyOf' : 'oneOf';
  const { [key]: _union, ...outer } = schema;
  if (others.length !== 1) return { schema: { ...outer, [key]: others }, nullable: true, outer: {} };
  const only = withoutNull(others[0] as Schema);
  return { schema: only.schema, nullable: true, outer: { ...only.outer, ...outer } };
}

/** The values a field may take when it is an enumeration (`enum`, `const`, or a union of them). */
export function enumValues(schema: Schema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const variants = alternatives(schema);
  if (!variants) return null;
  const values: unknown[] = [];
  for (const variant of variants) {
    const own = objectFields(variant) ? null : enumValues(variant);
    if (!own) return null;
    values.push(...own);
  }
  return values;
}

/** `min–max unit`, `≥ min unit`, `≤ max unit`, or null when neither is given (or says nothing). */
function range(min: unknown, max: unknown, unit: string): string | null {
  const lo = typeof min === 'number' ? min : null;
  const hi = typeof max === 'number' ? max : null;
  const of = (n: number) => (unit ? ` ${n === 1 ? unit.replace(/s$/, '') : unit}` : '');
  if (lo !== null && hi !== null) return lo === hi ? `exactly ${lo}${of(lo)}` : `${lo}–${hi}${of(hi)}`;
  if (lo !== null) {
    if (unit && lo === 0) return null;
    return unit && lo === 1 ? 'not empty' : `≥ ${lo}${of(lo)}`;
  }
  if (hi !== null) return `≤ ${hi}${of(hi)}`;
  return null;
}

/** What a field's value must be beyond its type (its values, lengths, bounds, pattern) and its default. */
function limits(schema: Schema): string[] {
  const notes: string[] = [];
  const values = enumValues(schema);
  if (values) notes.push(values.length === 1 ? `always ${codeValue(values[0])}` : values.map(codeValue).join(', '));
  const lengths = range(schema.minLength, schema.maxLength, 'characters');
  if (lengths) notes.push(lengths);
  const items = range(schema.minItems, schema.maxItems, 'items');
  if (items) notes.push(items);
  const entries = range(schema.minProperties, schema.maxProperties, 'entries');
  if (entries) notes.push(entries);
  const bounds = range(schema.minimum, schema.maximum, '');
  if (bounds) notes.push(bounds);
  if (typeof schema.exclusiveMinimum === 'number') notes.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.exclusiveMaximum === 'number') notes.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.pattern === 'string') notes.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.uniqueItems === true) notes.push('unique items');
  if ('default' in schema) notes.push(`default ${codeValue(schema.default)}`);
  if (schema.type === 'array' && isSchema(schema.items) && !isStructured(schema.items)) {
    const each = limits(schema.items);
    if (each.length > 0) notes.push(`each: ${each.join(', ')}`);
  }
  return notes;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Folds `html` under a summary when it is nested in a field (depth > 0); a body's own list stays open. */
function fold(summary: string, html: string, depth: number): string {
  return depth === 0 ? html : `<details><summary>${summary}</summary>${html}</details>`;
}

const isStructured = (schema: Schema) =>
  objectFields(schema) !== null || refName(schema) !== null || alternatives(schema) !== null;

/** What a reader finds inside a schema: the fields of an object, or the shapes of a union. */
export type Contents =
  | { kind: 'fields'; fields: { name: string; schema: Schema; required: boolean }[] }
  | { kind: 'shapes'; shapes: Schema[] };

/**
 * The schema a reader looks into: an array's items, a map's values (through any number of them), else
 * `schema` itself.
 */
export function element(schema: Schema): Schema {
  if (refName(schema)) return schema;
  if (schema.type === 'array' && isSchema(schema.items)) return element(withoutNull(schema.items).schema);
  if (!objectFields(schema) && isSchema(schema.additionalProperties)) {
    return element(withoutNull(schema.additionalProperties).schema);
  }
  return schema;
}

/**
 * What is inside `schema` (an `element`): its fields, or the shapes of a union; null for a `$ref`, a
 * scalar or an enumeration. The shape counter walks schemas with this too, so that it sees exactly
 * what the page shows.
 */
export function contents(schema: Schema): Contents | null {
  if (refName(schema)) return null;
  const fields = objectFields(schema);
  if (fields) {
    return {
      kind: 'fields',
      fields: fields.properties.map(([name, property]) => ({
        name,
        schema: property,
        required: fields.required.has(name),
      })),
    };
  }
  const variants = alternatives(schema);
  if (variants?.some(isStructured)) return { kind: 'shapes', shapes: variants.map((v) => withoutNull(v).schema) };
  return null;
}

/** A link to the section of a named schema. */
const nameLink = (name: string) => `<a href="#${escapeHtml(anchors.schema(name))}">${escapeHtml(name)}</a>`;

/**
 * Renders schemas for one page. A named schema met inside another is a link (`self`, the schema a
 * section of the Schemas list is about, is the one shown in full).
 */
export class SchemaHtml {
  constructor(private readonly names: SchemaNames) {}

  private named(schema: Schema): string | null {
    return refName(schema) ?? this.names.nameOf(schema);
  }

  /** The short type of a field, as HTML: `string`, `integer | null`, `array of User`, `map of string`… */
  typeLabel(schema: Schema): string {
    const name = this.named(schema);
    if (name) return nameLink(name);
    const values = enumValues(schema);
    if (values) return [...new Set(values.map((v) => (v === null ? 'null' : typeof v)))].join(' | ');
    const variants = alternatives(schema);
    if (variants) {
      if (variants.every((v) => objectFields(v) !== null)) return `object (one of ${variants.length} shapes)`;
      return [...new Set(variants.map((v) => this.typeLabel(withoutNull(v).schema)))].join(' | ');
    }
    const type = schema.type;
    if (type === 'array') return `array of ${isSchema(schema.items) ? this.typeLabel(schema.items) : 'any'}`;
    if (type === 'object' || objectFields(schema)) {
      if (!objectFields(schema) && isSchema(schema.additionalProperties)) {
        return `map of ${this.typeLabel(schema.additionalProperties)}`;
      }
      return 'object';
    }
    if (Array.isArray(type)) return type.map((t) => escapeHtml(String(t))).join(' | ');
    if (typeof type === 'string') {
      return escapeHtml(typeof schema.format === 'string' ? `${type} (${schema.format})` : type);
    }
    return 'any';
  }

  /** How one shape of a union is named: its name, its title, else the constant property that tells it apart. */
  private shapeLabel(shape: Schema, index: number): string {
    const name = this.named(shape);
    if (name) return nameLink(name);
    if (typeof shape.title === 'string') return escapeHtml(shape.title);
    const fields = objectFields(shape);
    for (const [field, property] of fields?.properties ?? []) {
      const values = enumValues(property);
      if (values?.length === 1 && fields?.required.has(field)) {
        return `<code>${escapeHtml(field)}</code> ${codeValue(values[0])}`;
      }
    }
    return `shape ${index + 1}`;
  }

  /** What is inside `schema` (fields or shapes), folded when nested in a field; '' for a named schema. */
  private inside(schema: Schema, depth: number, self?: Schema): string {
    const target = element(schema);
    if (target !== self && this.named(target)) return '';
    const found = contents(target);
    if (!found) return '';
    if (depth > MAX_DEPTH) return '<p class="desc">(nested too deep to list)</p>';
    if (found.kind === 'fields') {
      const items = found.fields.map((f) => this.field(f.name, f.schema, f.required, depth));
      return fold(plural(items.length, 'field'), `<ul class="fields">${items.join('')}</ul>`, depth);
    }
    const shapes = found.shapes.map(
      (shape, i) =>
        `<li><span class="shape">${this.shapeLabel(shape, i)}</span>` +
        `${this.named(shape) ? '' : paragraphs(shape.description)}${this.inside(shape, depth + 1)}</li>`,
    );
    return fold(`one of ${plural(shapes.length, 'shape')}`, `<ul class="shapes">${shapes.join('')}</ul>`, depth);
  }

  /** A type and its limits, as one line of HTML. */
  private typeLine(shape: Schema, nullable: boolean, outer: Schema): string {
    const notes = [...limits(shape), ...('default' in outer ? [`default ${codeValue(outer.default)}`] : [])];
    return (
      `<span class="type">${this.typeLabel(shape)}${nullable ? ' | null' : ''}</span>` +
      (notes.length > 0 ? ` <span class="notes">${notes.join('; ')}</span>` : '')
    );
  }

  /** One field: name, type, required, limits, description, and what is inside it (folded). */
  private field(name: string, schema: Schema, required: boolean, depth: number): string {
    const { schema: shape, nullable, outer } = withoutNull(schema);
    const description = outer.description ?? (this.named(shape) ? undefined : shape.description);
    return (
      `<li><code class="name">${escapeHtml(name)}</code> ${this.typeLine(shape, nullable, outer)}` +
      (required ? ' <span class="req">required</span>' : '') +
      (shape.deprecated === true ? ' <span class="deprecated">deprecated</span>' : '') +
      `${paragraphs(description)}${this.inside(shape, depth + 1)}</li>`
    );
  }

  /**
   * A whole schema (a body's, a component's): a line with `lead` (the body's media type), its type and
   * limits, then its fields. `self` is set for the section of a named schema, which shows its own
   * fields rather than a link to itself.
   */
  block(schema: Schema, lead: string, self = false): string {
    const { schema: shape, nullable, outer } = withoutNull(schema);
    const line = self ? lead : `${lead} ${this.typeLine(shape, nullable, outer)}`;
    const description = outer.description ?? (this.named(shape) && !self ? undefined : shape.description);
    return `${line ? `<p class="shape-of">${line}</p>` : ''}${paragraphs(description)}${this.inside(shape, 0, self ? shape : undefined)}`;
  }

  /** A parameter's type with its limits, as one line of HTML. */
  parameterType(schema: Schema): string {
    const { schema: shape, nullable, outer } = withoutNull(schema);
    return this.typeLine(shape, nullable, outer);
  }
}
