/**
 * Request validation with two Ajv instances. Query strings, path parameters and headers arrive as
 * text, so they are coerced to the schema's types (`?limit=10` → 10, `?type=a` → ['a']). JSON bodies
 * already carry types and are NOT coerced: with coercion, `null` sent for a `string | null` field
 * would turn into "" (Ajv tries the string branch first) and `"1"` would pass for a number.
 * Also what every request's input goes through before validation ({@link requestInput}): JSON
 * bodies parsed (an empty one reads as `{}`), and the one check that no input carries a NUL character.
 */
import { createRequire } from 'node:module';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.js';

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

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** Fastify's `schemaController.compilersFactory.buildValidator`: called for each encapsulation context. */
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;

/** A route's validator as Fastify calls it: `(data, {parentData, parentDataProperty})`, `.errors` after a failure. */
type Validate = ValidateFunction;
type Serialize = (data: unknown) => string;

/**
 * One coercing and one strict instance for the whole process, shared by every encapsulation
 * context (Fastify asks for new compilers in each plugin: 429 Ajv instances, each holding its own
 * compiled validators and formats). The shared schemas have unique ids, so each is added once.
 * Ajv caches compiled validators by schema object, so routes that reuse a schema compile it once.
 */
let instances: { coercing: Ajv; strict: Ajv } | undefined;

/** Adds a context's shared schemas to the instances; returns the compiler of a route part's validator. */
function validatorFactory(externalSchemas: Record<string, object> | undefined) {
  instances ??= { coercing: build(true), strict: build(false) };
  const { coercing, strict } = instances;
  for (const schema of Object.values(externalSchemas ?? {})) {
    const id = (schema as { $id?: string }).$id;
    if (id && coercing.getSchema(id)) continue;
    coercing.addSchema(schema);
    strict.addSchema(schema);
  }
  return ({ schema, httpPart }: { schema: object; httpPart?: string }): Validate =>
    (httpPart === 'body' ? strict : coercing).compile(schema);
}

/**
 * Fastify's own serializer factory (fast-json-stringify), taken from where Fastify takes it, so that
 * wrapping it changes when serializers are built and nothing else.
 */
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const fastJsonStringifyCompiler = fastifyRequire('@fastify/fast-json-stringify-compiler') as () => (
  externalSchemas: unknown,
  options: unknown,
) => (route: object) => Serialize;

/** A validator that compiles its schema on its first call; `.errors` and `.schemaEnv` read the compiled one. */
function validateOnFirstCall(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const compiledNow = () => {
    compiled ??= compile();
    return compiled;
  };
  const validate = (data: unknown, context?: Parameters<Validate>[1]) => compiledNow()(data, context);
  return Object.defineProperties(validate, {
    errors: { get: () => compiled?.errors ?? null },
    // Fastify passes the parent object (so Ajv can set defaults on the root) to Ajv's functions only.
    schemaEnv: { get: () => compiledNow().schemaEnv },
  }) as Validate;
}

/**
 * Fastify's compiler factories for validation (the shared Ajv instances) and serialization
 * (fast-json-stringify). Compiling every route's schemas at start-up costs seconds of CPU and tens of
 * megabytes for the ~430 routes (HEAD included), most of which a given process never serves: `lazy`
 * returns functions that compile on their first call (a few milliseconds, once). `eager` compiles
 * at start-up as Fastify does by default: the test that every schema compiles uses it, so that a
 * broken schema fails there rather than at its route's first request.
 */
export function schemaCompilers(mode: 'lazy' | 'eager'): CompilersFactory {
  // Fastify calls the validator compiler with the route definition (`{schema, httpPart, …}`), as
  // documented; its type declarations describe Ajv's own `compile` instead, hence the casts.
  const buildValidator = (externalSchemas: Record<string, object> | undefined) => {
    const compile = validatorFactory(externalSchemas);
    if (mode === 'eager') return compile;
    return (route: { schema: object; httpPart?: string }) => validateOnFirstCall(() => compile(route));
  };
  const buildSerializer = (externalSchemas: unknown, options: unknown) => {
    const compile = fastJsonStringifyCompiler()(externalSchemas, options);
    if (mode === 'eager') return compile;
    return (route: object): Serialize => {
      let compiled: Serialize | undefined;
      return (data) => {
        compiled ??= compile(route);
        return compiled(data);
      };
    };
  };
  return {
    buildValidator: buildValidator as unknown as ValidatorFactory,
    buildSerializer: buildSerializer as unknown as SerializerFactory,
  };
}

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

/** JSON bodies whose text had no `\u0000` (see the parser in {@link requestInput}). */
const withoutNul = new WeakSet<object>();

function isKnownWithoutNul(value: unknown): boolean {
  return value !== null && typeof value === 'object' && withoutNul.has(value);
}

/**
 * JSON bodies, and NUL characters refused in any path parameter, query value or body string (at any
 * depth) with a 400 naming the field, before validation and before any handler queries: PostgreSQL
 * cannot store NUL in text (it would be a 500) and SQLite would store what no client can use, so
 * both refuse it here.
 */
export const requestInput = fp(
  async (app: FastifyInstance) => {
    // An empty body sent as JSON (as the official client does for optional bodies) reads as `{}`.
    const parseJson = app.getDefaultJsonParser('error', 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body.toString();
      if (text.trim() === '') return done(null, {});
      // JSON has no raw NUL: a string or name holding one was written `\u0000`. A text without
      // that spelling parses to a body without NUL, which need not be walked (a page's whole
      // document, in every autosave).
      if (text.includes('\\u0000')) return parseJson(request, text, done);
      parseJson(request, text, (error: Error | null, value?: unknown) => {
        if (!error && value !== null && typeof value === 'object') withoutNul.add(value);
        done(error, value);
      });
    });

    // A callback hook (no promise per request).
    app.addHook('preValidation', (request, _reply, done) => {
      const parts: [Part, unknown][] = [
        ['params', request.params],
        ['querystring', request.query],
        ['body', request.body],
      ];
      for (const [part, value] of parts) {
        if (value === undefined || (part === 'body' && isKnownWithoutNul(value)) || isFlatWithoutNul(value)) continue;
        const where = findNul(value);
        if (where !== null) return done(badRequest(`${part}${where} must not contain a NUL character (\\u0000)`));
      }
      done();
    });
  },
  { name: 'bindery-request-input' },
);

/**
 * Whether `value` is an object of strings (or numbers, booleans, null) with no NUL in its keys or
 * strings: path parameters and most query strings. Checked without {@link findNul}'s walk.
 */
function isFlatWithoutNul(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    if (key.includes('\u0000')) return false;
    if (typeof child === 'string') {
      if (child.includes('\u0000')) return false;
    } else if (child !== null && typeof child === 'object') return false;
  }
  return true;
}
