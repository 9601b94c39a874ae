/**
 * The official `builtin:openapi` computed document, as Bindery can render it: GitBook computes
 * `openapi-operation` and `openapi-schemas` blocks, which Bindery's document model does not have, so
 * the same parts of a stored OpenAPI document (an operation, the operations of a tag, the API's
 * information, the models) are written here as Markdown (headings, paragraphs, code, tables), which
 * the caller turns into a document. Pure: the OpenAPI document in, Markdown out; `null` when the
 * part asked for is not in the document.
 */

export type OpenApiDocProps =
  | { doc: 'models' }
  | { doc: 'operations' | 'info' | 'tag'; page: string }
  | { doc: 'operation'; page: string; method: string };

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
/** A table cell: one line, pipes escaped. */
const cell = (value: string): string => value.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|') || ' ';

/** The target of a local `$ref` (`#/components/...`), one hop; the value itself otherwise. */
function resolve(root: Json, value: unknown): Json {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) {
    return isObject(value) ? value : {};
  }
  let node: unknown = root;
  for (const raw of value.$ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return isObject(node) ? node : {};
}

/** A schema's type as one word: the model it names, its type, `array of …`. */
function typeOf(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'object';
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (typeof schema.type === 'string') return schema.format ? `${schema.type} (${schema.format})` : schema.type;
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (Array.isArray(schema[key]))
      return (schema[key] as unknown[]).map(typeOf).join(key === 'allOf' ? ' and ' : ' or ');
  }
  return 'object';
}

function operationMarkdown(root: Json, path: string, method: string, operation: Json, level: number): string {
  const h = '#'.repeat(level);
  const out = [`${h} ${text(operation.summary) || `${method.toUpperCase()} ${path}`}`, ''];
  if (operation.deprecated === true) out.push('**Deprecated.**', '');
  if (text(operation.description)) out.push(text(operation.description), '');
  out.push('```http', `${method.toUpperCase()} ${path}`, '```', '');
  const pathItem = resolve(root, (root.paths as Json)[path]);
  const parameters = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ].map((p) => resolve(root, p));
  if (parameters.length > 0) {
    out.push(
      `${h}# Parameters`,
      '',
      '| Name | In | Type | Required | Description |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const p of parameters) {
      out.push(
        `| ${cell(text(p.name))} | ${cell(text(p.in))} | ${cell(typeOf(p.schema))} | ${p.required === true ? 'yes' : 'no'} | ${cell(text(p.description))} |`,
      );
    }
    out.push('');
  }
  const body = resolve(root, operation.requestBody);
  if (isObject(body.content)) {
    out.push(`${h}# Request body`, '');
    if (text(body.description)) out.push(text(body.description), '');
    for (const [type, media] of Object.entries(body.content))
      out.push(`- \`${type}\`: ${typeOf(resolve(root, media).schema)}`);
    out.push('');
  }
  if (isObject(operation.responses)) {
    out.push(`${h}# Responses`, '', '| Status | Description |', '| --- | --- |');
    for (const [status, response] of Object.entries(operation.responses)) {
      out.push(`| ${cell(status)} | ${cell(text(resolve(root, response).description))} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** Every operation of the document, in the order of its paths and methods. */
function operations(root: Json): Array<{ path: string; method: string; operation: Json }> {
  if (!isObject(root.paths)) return [];
  return Object.entries(root.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = resolve(root, item)[method];
      return isObject(operation) ? [{ path, method, operation }] : [];
    }),
  );
}

function modelsMarkdown(root: Json): string {
  const schemas = isObject(root.components) && isObject(root.components.schemas) ? root.components.schemas : {};
  const out = ['# Models', ''];
  for (const [name, raw] of Object.entries(schemas)) {
    const schema = resolve(root, raw);
    out.push(`## ${name}`, '');
    if (text(schema.description)) out.push(text(schema.description), '');
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) {
      out.push('| Property | Type | Required | Description |', '| --- | --- | --- | --- |');
      for (const [property, value] of Object.entries(schema.properties)) {
        const description = text(isObject(value) ? value.description : undefined);
        out.push(
          `| ${cell(property)} | ${cell(typeOf(value))} | ${required.has(property) ? 'yes' : 'no'} | ${cell(description)} |`,
        );
      }
      out.push('');
    } else {
      out.push(`Type: ${typeOf(schema)}`, '');
    }
  }
  return out.join('\n');
}

/**
 * The tags a computed revision has a page for: the document's `tags` in their order, then tags only
 * operations name; `null` stands for the operations without a tag.
 */
export function openApiTags(root: Json): Array<string | null> {
  const declared = (Array.isArray(root.tags) ? root.tags : []).map((t) => text(resolve(root, t).name)).filter(Boolean);
  const used = operations(root).flatMap((o) => (Array.isArray(o.operation.tags) ? o.operation.tags : [null]));
  const names: Array<string | null> = [...new Set([...declared, ...used.filter((t) => typeof t === 'string')])];
  return used.includes(null) ? [...names, null] : names;
}

/** The operations of `tag` (null: those without a tag), each with its title and Markdown. */
export function openApiTagOperations(root: Json, tag: string | null): Array<{ title: string; markdown: string }> {
  return operations(root)
    .filter((o) => {
      const tags = Array.isArray(o.operation.tags) ? (o.operation.tags as unknown[]) : [];
      return tag === null ? tags.length === 0 : tags.includes(tag);
    })
    .map((o) => ({
      title: text(o.operation.summary) || `${o.method.toUpperCase()} ${o.path}`,
      markdown: operationMarkdown(root, o.path, o.method, o.operation, 1),
    }));
}

/** The Markdown of `props`' part of the OpenAPI document `root`; null when it has no such part. */
export function openApiMarkdown(root: Json, props: OpenApiDocProps): string | null {
  if (props.doc === 'models') return modelsMarkdown(root);
  if (props.doc === 'info') {
    const info = resolve(root, root.info);
    const servers = Array.isArray(root.servers)
      ? root.servers.map((s) => text(resolve(root, s).url)).filter(Boolean)
      : [];
    return [
      `# ${text(info.title) || 'API'}`,
      '',
      ...(text(info.version) ? [`Version ${text(info.version)}`, ''] : []),
      ...(text(info.description) ? [text(info.description), ''] : []),
      ...(servers.length > 0 ? ['## Servers', '', ...servers.map((url) => `- \`${url}\``), ''] : []),
    ].join('\n');
  }
  if (props.doc === 'operation') {
    const found = operations(root).find((o) => o.path === props.page && o.method === props.method.toLowerCase());
    return found ? operationMarkdown(root, found.path, found.method, found.operation, 1) : null;
  }
  // `operations` and `tag`: the operations tagged `page`, under the tag's own description.
  const tagged = operations(root).filter(
    (o) => Array.isArray(o.operation.tags) && (o.operation.tags as unknown[]).includes(props.page),
  );
  const tag = (Array.isArray(root.tags) ? root.tags : [])
    .map((t) => resolve(root, t))
    .find((t) => t.name === props.page);
  if (tagged.length === 0 && !tag) return null;
  return [
    `# ${props.page}`,
    '',
    ...(text(tag?.description) ? [text(tag?.description), ''] : []),
    ...tagged.map((o) => operationMarkdown(root, o.path, o.method, o.operation, 2)),
  ].join('\n');
}
