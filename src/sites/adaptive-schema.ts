/**
 * The adaptive (visitor) schema of a site: the JSON schema of the claims its conditions read
 * (`visitor.claims.…`, the unsigned ones under `visitor.claims.unsigned.…`), in the shape of the
 * official `SiteAdaptiveJSONSchema` — an object schema whose properties are claims (booleans,
 * strings with or without an enum of values, numbers, arrays of those, or objects of claims), with
 * `additionalProperties: false` everywhere. Checked here field by field so that a 400 names what is
 * wrong; and turned into the template conditions an author starts from.
 */
import { badRequest } from '../lib/errors.js';

/** Limits that keep a schema (stored whole and read on every condition list) small. */
export const ADAPTIVE_SCHEMA_LIMITS = { claims: 200, depth: 5, enumValues: 100 } as const;

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

export type Primitive =
  | { type: 'boolean'; description: string }
  | { type: 'string'; description: string; enum?: string[] }
  | { type: 'number'; description: string };
export type Claim =
  | Primitive
  | { type: 'array'; description: string; items: Primitive }
  | { type: 'object'; description: string; properties: Record<string, Claim>; additionalProperties: false };

export interface AdaptiveJsonSchema {
  $schema?: typeof DRAFT_07;
  type: 'object';
  properties: Record<string, unknown>;
  additionalProperties: false;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Checker {
  claims = 0;

  fail(at: string, message: string): never {
    throw badRequest(`${at} ${message}`);
  }

  /** Exactly `allowed` keys, `required` among them. */
  keys(value: Json, at: string, allowed: string[], required: string[]): void {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) this.fail(at, `must not have property '${key}'`);
    for (const key of required) if (!(key in value)) this.fail(at, `must have required property '${key}'`);
  }

  description(value: Json, at: string, exact?: string): void {
    if (typeof value.description !== 'string') this.fail(`${at}/description`, 'must be a string');
    if (exact !== undefined && value.description !== exact) this.fail(`${at}/description`, `must be "${exact}"`);
  }

  closed(value: Json, at: string): void {
    if (value.additionalProperties !== false) this.fail(`${at}/additionalProperties`, 'must be false');
  }

  primitive(value: unknown, at: string): void {
    if (!isObject(value)) this.fail(at, 'must be an object');
    if (value.type === 'string') {
      this.keys(value, at, ['type', 'description', 'enum'], ['type', 'description']);
      if (value.enum !== undefined) {
        const values = value.enum;
        if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
          this.fail(`${at}/enum`, 'must be an array of strings');
        }
        if (values.length > ADAPTIVE_SCHEMA_LIMITS.enumValues) {
          this.fail(`${at}/enum`, `must have at most ${ADAPTIVE_SCHEMA_LIMITS.enumValues} values`);
        }
      }
    } else if (value.type === 'boolean' || value.type === 'number') {
      this.keys(value, at, ['type', 'description'], ['type', 'description']);
    } else {
      this.fail(`${at}/type`, 'must be boolean, string or number');
    }
    this.description(value, at);
  }

  claim(value: unknown, at: string, depth: number): void {
    if (!isObject(value)) this.fail(at, 'must be an object');
    if (value.type === 'array') {
      this.keys(value, at, ['type', 'description', 'items'], ['type', 'description', 'items']);
      this.description(value, at);
      this.primitive(value.items, `${at}/items`);
    } else if (value.type === 'object') {
      this.keys(
        value,
        at,
        ['type', 'description', 'properties', 'additionalProperties'],
        ['type', 'description', 'properties', 'additionalProperties'],
      );
      this.description(value, at);
      this.closed(value, at);
      this.claimsOf(value.properties, `${at}/properties`, depth + 1);
    } else {
      this.primitive(value, at);
    }
  }

  claimsOf(value: unknown, at: string, depth: number): void {
    if (!isObject(value)) this.fail(at, 'must be an object');
    if (depth > ADAPTIVE_SCHEMA_LIMITS.depth) {
      this.fail(at, `nests claims deeper than ${ADAPTIVE_SCHEMA_LIMITS.depth} levels`);
    }
    for (const [name, claim] of Object.entries(value)) {
      if (++this.claims > ADAPTIVE_SCHEMA_LIMITS.claims) {
        this.fail('body/jsonSchema', `must declare at most ${ADAPTIVE_SCHEMA_LIMITS.claims} claims`);
      }
      this.claim(claim, `${at}/${name}`, depth);
    }
  }

  unsigned(value: unknown, at: string): void {
    if (!isObject(value)) this.fail(at, 'must be an object');
    this.keys(
      value,
      at,
      ['type', 'description', 'properties', 'additionalProperties'],
      ['type', 'description', 'properties', 'additionalProperties'],
    );
    if (value.type !== 'object') this.fail(`${at}/type`, 'must be object');
    this.description(value, at, UNSIGNED_DESCRIPTION);
    this.closed(value, at);
    this.claimsOf(value.properties, `${at}/properties`, 2);
  }
}

/** The schema if it is a valid `SiteAdaptiveJSONSchema` within the limits; a 400 naming the field otherwise. */
export function checkAdaptiveSchema(value: unknown): AdaptiveJsonSchema {
  const at = 'body/jsonSchema';
  const check: Checker = new Checker();
  if (!isObject(value)) check.fail(at, 'must be an object');
  check.keys(
    value,
    at,
    ['$schema', 'type', 'properties', 'additionalProperties'],
    ['type', 'properties', 'additionalProperties'],
  );
  if (value.$schema !== undefined && value.$schema !== DRAFT_07) check.fail(`${at}/$schema`, `must be "${DRAFT_07}"`);
  if (value.type !== 'object') check.fail(`${at}/type`, 'must be object');
  check.closed(value, at);
  const properties = value.properties;
  if (!isObject(properties)) check.fail(`${at}/properties`, 'must be an object');
  const { unsigned, ...signed } = properties;
  if (unsigned !== undefined) check.unsigned(unsigned, `${at}/properties/unsigned`);
  check.claimsOf(signed, `${at}/properties`, 1);
  return value as unknown as AdaptiveJsonSchema;
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const access = (base: string, name: string) =>
  IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
const quoted = (v: string) => JSON.stringify(v);

function templatesOf(claim: Claim, path: string, label: string, out: TemplateCondition[]): void {
  const about = claim.description ? ` (${claim.description})` : '';
  switch (claim.type) {
    case 'boolean':
      out.push({ description: `${label} is true${about}`, condition: `${path} === true` });
      out.push({ description: `${label} is not true${about}`, condition: `${path} !== true` });
      return;
    case 'string':
      if (claim.enum && claim.enum.length > 0) {
        for (const value of claim.enum) {
          out.push({ description: `${label} is ${quoted(value)}${about}`, condition: `${path} === ${quoted(value)}` });
        }
        return;
      }
      out.push({ description: `${label} is set${about}`, condition: `${path} !== undefined` });
      return;
    case 'number':
      out.push({ description: `${label} is greater than 0${about}`, condition: `${path} > 0` });
      return;
    case 'array':
      if (claim.items.type === 'string' && claim.items.enum && claim.items.enum.length > 0) {
        for (const value of claim.items.enum) {
          out.push({
            description: `${label} includes ${quoted(value)}${about}`,
            condition: `${path}?.includes(${quoted(value)}) === true`,
          });
        }
        return;
      }
      out.push({ description: `${label} is not empty${about}`, condition: `${path}?.length > 0` });
      return;
    case 'object':
      for (const [name, child] of Object.entries(claim.properties)) {
        templatesOf(child, access(path, name), `${label}.${name}`, out);
      }
  }
}

/**
 * Template conditions for every claim of the schema, in its order: one per value of an enum (or
 * per value an array may include), true / not true for a boolean, "is set" for a free string,
 * "greater than 0" for a number, "not empty" for other arrays. Each is a condition the site's
 * conditions accept (`src/sites/condition.ts`).
 */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const { unsigned, ...signed } = schema.properties as Record<string, Claim | undefined>;
  for (const [name, claim] of Object.entries(signed)) {
    if (claim) templatesOf(claim, access('visitor.claims', name), name, out);
  }
  const unsignedClaims = (unsigned as { properties?: Record<string, Claim> } | undefined)?.properties ?? {};
  for (const [name, claim] of Object.entries(unsignedClaims)) {
    templatesOf(claim, access('visitor.claims.unsigned', name), `unsigned.${name}`, out);
  }
  return out;
}
