/**
 * Request validation with two Ajv instances. Query strings, path parameters and headers arrive as
 * text, so they are coerced to the schema's types (`?limit=10` → 10, `?type=a` → ['a']). JSON bodies
 * already carry types and are NOT coerced: with coercion, `null` sent for a `string | null` field
 * would turn into "" (Ajv tries the string branch first) and `"1"` would pass for a number.
 * Also: the one check that no input carries a NUL character ({@link rejectNulCharacters}).
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { badRequest } from './errors.js';

const shared: Options = {
  useDefaults: true,
  removeAdditional: false,
  uriResolver: fastUri,
  addUsedSchema: false,
  // allErrors stays off: with it, crafted input can make validation expensive.
  allErrors: false,
  strict: false,
};

function build(coerce: boolean): Ajv {
  const ajv = new Ajv({ ...shared, coerceTypes: coerce ? 'array' : false });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: called for each encapsulation
 * context with the schemas added there (shared schemas are added to both instances).
 */
type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

/**
 * One coercing and one strict instance for the whole process, shared by every encapsulation
 * context (Fastify asks for new compilers in each plugin: 429 Ajv instances, each holding its own
 * compiled validators and formats). The shared schemas have unique ids, so each is added once.
 * Ajv caches compiled validators by schema object, so routes that reuse a schema compile it once.
 */
let instances: { coercing: Ajv; strict: Ajv } | undefined;

export const buildValidator = ((externalSchemas: Record<string, object> | undefined) => {
  instances ??= { coercing: build(true), strict: build(false) };
  const { coercing, strict } = instances;
  for (const schema of Object.values(externalSchemas ?? {})) {
    const id = (schema as { $id?: string }).$id;
    if (id && coercing.getSchema(id)) continue;
    coercing.addSchema(schema);
    strict.addSchema(schema);
  }
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema);
  // Fastify calls the compiler with the route definition (`{schema, httpPart, …}`), as documented;
  // its type declarations describe Ajv's own `compile` instead, hence the cast.
}) as unknown as ValidatorFactory;

type Part = 'params' | 'querystring' | 'body';

/** A value met while walking a request part, with how it was reached (to name it if it is bad). */
interface Step {
  value: unknown;
  key: string;
  parent: Step | null;
}

/** `/changes/0/markdown`: NULs in field names shown escaped, a very deep path cut short. */
function pathOf(step: Step): string {
  const keys: string[] = [];
  for (let s: Step | null = step; s?.parent; s = s.parent) keys.push(s.key);
  const path = `/${keys.reverse().join('/')}`.replaceAll('\u0000', '\\u0000');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/**
 * The path (`/changes/0/markdown`) of the first string or field name holding a NUL character, or
 * null. Iterative: a JSON body may nest deeper than the call stack.
 */
function findNul(root: unknown): string | null {
  const stack: Step[] = [{ value: root, key: '', parent: null }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const { value } = step;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return step.parent ? pathOf(step) : '';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: step });
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return pathOf({ value: child, key, parent: step });
        stack.push({ value: child, key, parent: step });
      }
    }
  }
  return null;
}

/**
 * Refuses a NUL character in any path parameter, query value or body string (at any depth) with a
 * 400 naming the field, before validation and before any handler queries: PostgreSQL cannot store
 * NUL in text (it would be a 500) and SQLite would store what no client can use, so both refuse it here.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts: [Part, unknown][] = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ];
    for (const [part, value] of parts) {
      const where = findNul(value);
      if (where !== null) throw badRequest(`${part}${where} must not contain a NUL character (\\u0000)`);
    }
  });
}
