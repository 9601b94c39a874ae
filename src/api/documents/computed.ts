/**
 * Computed content Bindery can compute honestly: the official `builtin:openapi` source of
 * `getComputedDocument`, from a processed OpenAPI specification of the space's organization
 * (src/content/openapi-markdown.ts says what is rendered and how). Other sources (`builtin:translation`,
 * `integration:…`) and whole computed revisions are a 400 naming the type: Bindery runs no
 * integration code, and a translation writes its result to a space of its own (runTranslation).
 */
import type { JsonDocument } from '../../content/document.js';
import { markdownToDocument } from '../../content/markdown.js';
import { type OpenApiDocProps, openApiMarkdown } from '../../content/openapi-markdown.js';
import type { Db } from '../../db/database.js';
import type { SpaceRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findMembership } from '../../permissions/organization.js';
import { findSpec, findVersion } from '../openapi/repo.js';

const DOCS = ['models', 'operations', 'info', 'operation', 'tag'];
const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace', 'hook'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `props` of a `builtin:openapi` document source, checked as the official schema has them (400 naming the field). */
function readProps(value: unknown): OpenApiDocProps {
  const at = 'body/source/props';
  if (!isObject(value) || typeof value.doc !== 'string' || !DOCS.includes(value.doc)) {
    throw badRequest(`${at}/doc must be one of ${DOCS.join(', ')}`);
  }
  if (value.doc === 'models') return { doc: 'models' };
  if (typeof value.page !== 'string' || value.page === '')
    throw badRequest(`${at}/page is required for doc ${value.doc}`);
  if (value.doc !== 'operation') return { doc: value.doc as 'operations' | 'info' | 'tag', page: value.page };
  if (typeof value.method !== 'string' || !METHODS.includes(value.method)) {
    throw badRequest(`${at}/method must be one of ${METHODS.join(', ')}`);
  }
  return { doc: 'operation', page: value.page, method: value.method };
}

/** The slug of `dependencies.spec` (`{ref}` or the resolved `{ref, value}`), both official forms. */
function specSlug(dependencies: unknown): string {
  const ref = isObject(dependencies) && isObject(dependencies.spec) ? dependencies.spec.ref : undefined;
  if (!isObject(ref) || ref.kind !== 'openapi' || typeof ref.spec !== 'string' || ref.spec === '') {
    throw badRequest('body/source/dependencies/spec/ref must be {kind: "openapi", spec: "<slug>"}');
  }
  return ref.spec;
}

/**
 * The document of `source` for a reader of `space`. The specification must be one of the space's
 * organization that the caller can read (members who are not guests; 404 otherwise, as for none),
 * processed (409 before its first version); the part asked for must be in it (404).
 */
export async function computeDocument(db: Db, userId: string, space: SpaceRow, source: Json): Promise<JsonDocument> {
  if (source.type !== 'builtin:openapi') {
    throw badRequest(
      `computed content of type ${String(source.type)} is not supported by this server (only builtin:openapi)`,
    );
  }
  const props = readProps(source.props);
  const slug = specSlug(source.dependencies);
  const membership = await findMembership(db, space.organization_id, userId);
  const spec =
    membership && membership.role !== null && !membership.disabled
      ? await findSpec(db, space.organization_id, slug)
      : undefined;
  if (!spec) throw notFound(`OpenAPI specification ${slug} not found`);
  const version = spec.last_version_id ? await findVersion(db, spec.id, spec.last_version_id) : undefined;
  if (!version) throw conflict(`OpenAPI specification ${slug} has not been processed yet`);
  const filesystem = JSON.parse(version.filesystem) as Record<string, unknown>;
  const root = Object.values(filesystem)[0];
  const markdown = isObject(root) ? openApiMarkdown(root, props) : null;
  if (markdown === null) {
    const what =
      props.doc === 'operation'
        ? `operation ${props.method.toUpperCase()} ${props.page}`
        : `${props.doc} ${'page' in props ? props.page : ''}`;
    throw notFound(`${what.trim()} not found in OpenAPI specification ${slug}`);
  }
  return markdownToDocument(markdown);
}
