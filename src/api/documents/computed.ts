/**
 * Computed content Bindery can compute honestly: the official `builtin:openapi` source of
 * `getComputedDocument` and `getComputedRevision`, from a processed OpenAPI specification of the
 * space's organization (src/content/openapi-markdown.ts says what is rendered and how). Other sources
 * (`builtin:translation`, `integration:…`) are a 400 naming the type: Bindery runs no integration
 * code, and a translation writes its result to a space of its own (runTranslation).
 */
import { createHash } from 'node:crypto';
import type { JsonDocument } from '../../content/document.js';
import { markdownToDocument, takeLeadingTitle } from '../../content/markdown.js';
import {
  type OpenApiDocProps,
  openApiMarkdown,
  openApiTagOperations,
  openApiTags,
} from '../../content/openapi-markdown.js';
import type { PageNode } from '../../content/store.js';
import { slugsOf } from '../../content/tree.js';
import type { Db } from '../../db/database.js';
import type { SpaceRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { slugify, uniqueSlug } from '../../lib/slug.js';
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
  const root = await specRoot(db, userId, space, slug);
  const markdown = openApiMarkdown(root, props);
  if (markdown === null) {
    const what =
      props.doc === 'operation'
        ? `operation ${props.method.toUpperCase()} ${props.page}`
        : `${props.doc} ${'page' in props ? props.page : ''}`;
    throw notFound(`${what.trim()} not found in OpenAPI specification ${slug}`);
  }
  return markdownToDocument(markdown);
}

/** The official `ComputedContentSourceRevisionOpenAPI` props. */
function readRevisionProps(value: unknown): { models: boolean; grouping: 'by-tag' | 'by-operation' } {
  const at = 'body/source/props';
  if (!isObject(value) || typeof value.models !== 'boolean') throw badRequest(`${at}/models must be a boolean`);
  const grouping = value.grouping ?? 'by-tag';
  if (grouping !== 'by-tag' && grouping !== 'by-operation') {
    throw badRequest(`${at}/grouping must be by-tag or by-operation`);
  }
  return { models: value.models, grouping };
}

/** The latest version's entry document of specification `slug`, for `userId` (see {@link computeDocument}). */
async function specRoot(db: Db, userId: string, space: SpaceRow, slug: string): Promise<Json> {
  const membership = await findMembership(db, space.organization_id, userId);
  const visible = membership && membership.role !== null && !membership.disabled;
  const spec = visible ? await findSpec(db, space.organization_id, slug) : undefined;
  if (!spec) throw notFound(`OpenAPI specification ${slug} not found`);
  const version = spec.last_version_id ? await findVersion(db, spec.id, spec.last_version_id) : undefined;
  if (!version) throw conflict(`OpenAPI specification ${slug} has not been processed yet`);
  const root = Object.values(JSON.parse(version.filesystem) as Record<string, unknown>)[0];
  if (!isObject(root)) throw conflict(`OpenAPI specification ${slug} has no document`);
  return root;
}

/** A page's body from Markdown whose leading heading is the page's title (so left out). */
function body(markdown: string): JsonDocument {
  const document = markdownToDocument(markdown);
  return takeLeadingTitle(document)?.document ?? document;
}

/**
 * The pages of a `builtin:openapi` computed revision: one page per tag (its description and its
 * operations; `by-operation`: a page per operation under it), the operations without a tag under
 * "Other operations", and "Models" when asked. Ids come from `seed`, so the same seed and
 * specification give the same ids.
 */
export async function computeRevisionPages(
  db: Db,
  userId: string,
  space: SpaceRow,
  source: Json,
  seed: string,
): Promise<{ pages: PageNode[]; documents: Map<string, JsonDocument> }> {
  if (source.type !== 'builtin:openapi') {
    throw badRequest(
      `computed content of type ${String(source.type)} is not supported by this server (only builtin:openapi)`,
    );
  }
  const props = readRevisionProps(source.props);
  const root = await specRoot(db, userId, space, specSlug(source.dependencies));
  const documents = new Map<string, JsonDocument>();
  const page = (key: string, title: string, siblings: PageNode[], document?: JsonDocument): PageNode => {
    const id = createHash('sha256').update(`${seed}\0${key}`).digest('base64url').slice(0, 20);
    const node: PageNode = {
      id,
      type: 'document',
      title,
      slug: uniqueSlug(slugify(title), slugsOf(siblings)),
      children: [],
    };
    if (document && document.nodes.length > 0) {
      // The page's document is looked up by this key when presented (nothing is stored).
      node.document = id;
      documents.set(id, document);
    }
    siblings.push(node);
    return node;
  };
  const pages: PageNode[] = [];
  for (const tag of openApiTags(root)) {
    const title = tag ?? 'Other operations';
    const operations = openApiTagOperations(root, tag);
    if (props.grouping === 'by-tag') {
      const markdown = tag === null ? '' : (openApiMarkdown(root, { doc: 'tag', page: tag }) ?? '');
      const own = tag === null ? operations.map((o) => o.markdown.replace(/^# /, '## ')).join('\n') : markdown;
      page(`tag:${title}`, title, pages, body(own || `# ${title}`));
      continue;
    }
    const tagMarkdown = tag === null ? '' : (openApiMarkdown(root, { doc: 'tag', page: tag }) ?? '');
    const intro = tagMarkdown.split(/\n## /)[0] ?? '';
    const parent = page(`tag:${title}`, title, pages, body(intro || `# ${title}`));
    for (const [i, operation] of operations.entries()) {
      page(`operation:${title}:${i}`, operation.title, parent.children, body(operation.markdown));
    }
  }
  if (props.models) page('models', 'Models', pages, body(openApiMarkdown(root, { doc: 'models' }) ?? ''));
  return { pages, documents };
}
