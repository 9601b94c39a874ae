/**
 * Request validation with two Ajv instances. Query strings, path parameters and headers arrive as
 * text, so they are coerced to the schema's types (`?limit=10` → 10, `?type=a` → ['a']). JSON bodies
 * already carry types and are NOT coerced: with coercion, `null` sent for a `string | null` field
 * would turn into "" (Ajv tries the string branch first) and `"1"` would pass for a number.
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import type { FastifyServerOptions } from 'fastify';

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

export const buildValidator = ((externalSchemas: Record<string, object> | undefined) => {
  const coercing = build(true);
  const strict = build(false);
  for (const schema of Object.values(externalSchemas ?? {})) {
    coercing.addSchema(schema);
    strict.addSchema(schema);
  }
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema);
  // Fastify calls the compiler with the route definition (`{schema, httpPart, …}`), as documented;
  // its type declarations describe Ajv's own `compile` instead, hence the cast.
}) as unknown as ValidatorFactory;
