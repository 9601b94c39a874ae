/**
 * The API reference (/docs) as one HTML page, written on the server from the OpenAPI document: a
 * table of contents, then every operation grouped by tag (method, path, operationId, summary,
 * description, who may call it, parameters, request body, responses), then the named schemas the
 * operations link to (reference-shapes.ts). Plain HTML and CSS, no script: the browser draws it as it
 * arrives.
 */
import { escapeHtml } from './html.js';
import { isSchema, type Schema, SchemaHtml } from './reference-schema.js';
import { nameSchemas, type SchemaRoot } from './reference-shapes.js';
import { anchors, inlineText, paragraphs } from './reference-text.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Operations without a tag are listed last, under this heading. */
const UNTAGGED = 'other';

interface Operation {
  method: string;
  path: string;
  id: string;
  operation: Schema;
}

export interface ReferenceLinks {
  /** The OpenAPI document. */
  openapi: string;
  /** Another rendering of the document (Redoc), null when there is none. */
  interactive: string | null;
  /** The server's home page. */
  home: string;
}

const entries = (value: unknown): [string, Schema][] =>
  isSchema(value) ? Object.entries(value).filter((e): e is [string, Schema] => isSchema(e[1])) : [];

/** The document's operations grouped by their first tag, tags in the order they first appear. */
function operationsByTag(document: Schema): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>();
  for (const [path, item] of entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!isSchema(operation)) continue;
      const id = typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`;
      const tags = Array.isArray(operation.tags) ? operation.tags : [];
      const tag = typeof tags[0] === 'string' ? tags[0] : UNTAGGED;
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)?.push({ method, path, id, operation });
    }
  }
  const untagged = groups.get(UNTAGGED);
  if (untagged) {
    groups.delete(UNTAGGED);
    groups.set(UNTAGGED, untagged);
  }
  return groups;
}

const methodBadge = (method: string) => `<span class="method ${method}">${method.toUpperCase()}</span>`;
const href = (anchor: string) => `#${escapeHtml(anchor)}`;

function tableOfContents(groups: Map<string, Operation[]>, components: [string, Schema][]): string {
  const tags = [...groups].map(
    ([tag, operations]) =>
      `<li><a href="${href(anchors.tag(tag))}">${escapeHtml(tag)}</a><ul>${operations
        .map(
          (o) => `<li><a href="${href(anchors.operation(o.id))}">${methodBadge(o.method)} ${escapeHtml(o.id)}</a></li>`,
        )
        .join('')}</ul></li>`,
  );
  if (components.length > 0) {
    tags.push(
      `<li><a href="#schemas">Schemas</a><ul>${components
        .map(([name]) => `<li><a href="${href(anchors.schema(name))}">${escapeHtml(name)}</a></li>`)
        .join('')}</ul></li>`,
    );
  }
  return `<nav aria-labelledby="toc"><h2 id="toc">Contents</h2><ul>${tags.join('')}</ul></nav>`;
}

function parameters(operation: Schema, schemas: SchemaHtml): string {
  const list = Array.isArray(operation.parameters) ? operation.parameters.filter(isSchema) : [];
  if (list.length === 0) return '';
  const rows = list.map((p) => {
    const name = typeof p.name === 'string' ? p.name : '';
    const where = typeof p.in === 'string' ? p.in : '';
    return (
      `<tr><td><code class="name">${escapeHtml(name)}</code> <span class="in">${escapeHtml(where)}</span>` +
      `${p.required === true ? ' <span class="req">required</span>' : ''}</td>` +
      `<td>${isSchema(p.schema) ? schemas.parameterType(p.schema) : ''}${paragraphs(p.description)}</td></tr>`
    );
  });
  return (
    '<h4>Parameters</h4><table class="params"><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

/** The bodies of a request or response, one per media type, each after `lead` (the response's status). */
function bodies(content: unknown, schemas: SchemaHtml, lead = ''): string {
  const list = entries(content).map(([type, media]) => {
    const line = `${lead}<span class="media">${escapeHtml(type)}</span>`;
    return isSchema(media.schema) ? schemas.block(media.schema, line) : `<p class="shape-of">${line}</p>`;
  });
  return list.length > 0 ? list.join('') : lead ? `<p class="shape-of">${lead}</p>` : '';
}

function requestBody(operation: Schema, schemas: SchemaHtml): string {
  const body = operation.requestBody;
  if (!isSchema(body)) return '';
  return (
    `<h4>Request body${body.required === true ? ' <span class="req">required</span>' : ''}</h4>` +
    `${paragraphs(body.description)}${bodies(body.content, schemas)}`
  );
}

/** `2XX`-style classes for a status code's colour. */
const statusClass = (status: string) => (/^[1-5]/.test(status) ? `s${status[0]}` : 'sd');

function responses(operation: Schema, schemas: SchemaHtml): string {
  const list = entries(operation.responses).map(([status, response]) => {
    // fastify-swagger's placeholder says nothing.
    const description = response.description === 'Default Response' ? '' : response.description;
    const text = typeof description === 'string' && description ? `${inlineText(description)} ` : '';
    return `<div class="response">${bodies(response.content, schemas, `<span class="code ${statusClass(status)}">${escapeHtml(status)}</span> ${text}`)}</div>`;
  });
  return list.length > 0 ? `<h4>Responses</h4>${list.join('')}` : '';
}

/** Who may call it, when it differs from the document's default (a bearer token). */
function security(operation: Schema): string {
  const requirements = operation.security;
  if (!Array.isArray(requirements)) return '';
  if (requirements.length === 0) return '<p class="auth">No token needed.</p>';
  const names = requirements.filter(isSchema).flatMap((r) => Object.keys(r));
  return `<p class="auth">Authentication: ${names.map((n) => `<code>${escapeHtml(n)}</code>`).join(' or ')}</p>`;
}

function operationSection(o: Operation, schemas: SchemaHtml): string {
  const { operation } = o;
  const summary =
    typeof operation.summary === 'string' ? `<p class="summary">${inlineText(operation.summary)}</p>` : '';
  return (
    `<section class="op" id="${escapeHtml(anchors.operation(o.id))}">` +
    `<h3 elementtiming="operation">${escapeHtml(o.id)}${operation.deprecated === true ? ' <span class="deprecated">deprecated</span>' : ''}</h3>` +
    `<p class="endpoint">${methodBadge(o.method)} <code class="path">${escapeHtml(o.path)}</code></p>` +
    `${summary}${paragraphs(operation.description)}${security(operation)}` +
    `${parameters(operation, schemas)}${requestBody(operation, schemas)}${responses(operation, schemas)}</section>`
  );
}

function introduction(document: Schema, links: ReferenceLinks): string {
  const info = isSchema(document.info) ? document.info : {};
  const title = typeof info.title === 'string' ? info.title : 'API reference';
  const version = typeof info.version === 'string' ? ` <span class="version">${escapeHtml(info.version)}</span>` : '';
  const servers = (Array.isArray(document.servers) ? document.servers.filter(isSchema) : [])
    .map((s) => (typeof s.url === 'string' ? `<code>${escapeHtml(s.url)}</code>` : ''))
    .filter(Boolean);
  const other = links.interactive
    ? `, or <a href="${escapeHtml(links.interactive)}">the same reference in Redoc</a> (with a search; slower to open)`
    : '';
  return (
    `<header><h1>${escapeHtml(title)} reference${version}</h1>${paragraphs(info.description)}` +
    (servers.length > 0 ? `<p class="desc">Server: ${servers.join(', ')}</p>` : '') +
    `<p class="desc"><a href="#toc">Contents</a> · the <a href="${escapeHtml(links.openapi)}">OpenAPI document</a>${other} · ` +
    `<a href="${escapeHtml(links.home)}">Bindery home</a></p></header>`
  );
}

/** Every schema the operations show, with the name it would be listed under if shown more than once. */
function schemaRoots(groups: Map<string, Operation[]>): SchemaRoot[] {
  const roots: SchemaRoot[] = [];
  const bodies = (content: unknown, name: string) => {
    for (const [, media] of entries(content)) if (isSchema(media.schema)) roots.push({ schema: media.schema, name });
  };
  for (const { id, operation } of [...groups.values()].flat()) {
    for (const p of Array.isArray(operation.parameters) ? operation.parameters.filter(isSchema) : []) {
      if (isSchema(p.schema)) roots.push({ schema: p.schema, name: typeof p.name === 'string' ? p.name : id });
    }
    if (isSchema(operation.requestBody)) bodies(operation.requestBody.content, `${id} body`);
    for (const [, response] of entries(operation.responses)) bodies(response.content, `${id} response`);
  }
  return roots;
}

/** The body of the reference page for `document` (an OpenAPI 3 document, read defensively). */
export function referenceBody(document: unknown, links: ReferenceLinks): string {
  const doc = isSchema(document) ? document : {};
  const groups = operationsByTag(doc);
  const named = nameSchemas(
    entries(isSchema(doc.components) ? doc.components.schemas : undefined),
    schemaRoots(groups),
  );
  const schemas = new SchemaHtml(named);
  const tags = [...groups].map(
    ([tag, operations]) =>
      `<section class="tag" id="${escapeHtml(anchors.tag(tag))}"><h2>${escapeHtml(tag)}</h2>` +
      `${operations.map((o) => operationSection(o, schemas)).join('')}</section>`,
  );
  const listed =
    named.list.length > 0
      ? `<section class="tag" id="schemas"><h2>Schemas</h2>${named.list
          .map(
            ([name, schema]) =>
              `<section class="component" id="${escapeHtml(anchors.schema(name))}"><h3>${escapeHtml(name)}</h3>${schemas.block(schema, '', true)}</section>`,
          )
          .join('')}</section>`
      : '';
  return (
    // The contents come after the operations in the document (the style places them on the left): the
    // browser then draws the first operations before it has read the 280 links of the contents.
    `${introduction(doc, links)}<div class="layout"><main>${tags.join('')}${listed}</main>` +
    `${tableOfContents(groups, named.list)}</div>`
  );
}
