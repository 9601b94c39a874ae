/** Schemas of a site's adaptive (visitor) schema operations (the official ones). */
import { Type } from 'typebox';
import { Timestamp } from '../../../lib/schemas.js';

/**
 * The official `SiteAdaptiveJSONSchema`, loosely: an object here, checked field by field by
 * `src/sites/adaptive-schema.ts` (its claims nest, and a 400 there names the field that is wrong).
 */
export const AdaptiveJsonSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    type: Type.String(),
    properties: Type.Record(Type.String(), Type.Unknown()),
    additionalProperties: Type.Boolean(),
  },
  { additionalProperties: true, description: 'JSON schema of the claims of a visitor of the site' },
);

export const SiteAdaptiveSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: AdaptiveJsonSchema,
  updatedAt: Timestamp,
});

export const UpdateAdaptiveSchemaBody = Type.Object(
  { jsonSchema: AdaptiveJsonSchema },
  { additionalProperties: false },
);

export const TemplateConditions = Type.Object({
  items: Type.Array(Type.Object({ description: Type.String(), condition: Type.String() })),
});
