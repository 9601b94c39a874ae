/**
 * The properties the official format requires of each of its objects (node_modules/@gitbook/api
 * spec: the `required` lists of `DocumentBlock*`, `DocumentInline*`, `DocumentMark*`, their `data`'s,
 * `DocumentText`, `DocumentTextLeaf`, `DocumentFragment`), checked where the server accepts a
 * document (checkDocumentModel): a heading without `data` is refused with a 400 naming it, as the
 * official API would, instead of being stored. Types the format does not list are not checked (the
 * editor keeps them as atoms). test/unit/document-model-required.test.ts keeps this table in step
 * with the official document.
 */
import { DocumentModelError } from './types.js';

type Value = Record<string, unknown>;

/** `object:type` of each kind, by the properties it requires (`data.x`: a property of its `data`). */
const BY_FIELDS: Record<string, string> = {
  nodes:
    'block:paragraph block:list-unordered block:list-tasks block:list-item block:blockquote block:tabs block:stepper',
  'data nodes':
    'block:heading-1 block:heading-2 block:heading-3 block:list-ordered block:code block:code-line block:tabs-item block:stepper-step block:column',
  'data isVoid':
    'block:divider block:drawing block:swagger block:openapi-operation block:openapi-webhook inline:button',
  'data nodes data.style': 'block:hint',
  'data nodes data.description': 'block:prompt',
  'data nodes data.expression': 'block:if',
  'data isVoid nodes': 'block:images block:columns',
  'data fragments isVoid data.ref': 'block:image',
  'data isVoid data.ref':
    'block:file block:openapi-schemas block:content-ref block:reusable-content inline:inline-image inline:mention',
  'data isVoid data.url': 'block:embed',
  'data isVoid data.formula': 'block:math inline:inline-math',
  'data fragments isVoid': 'block:expandable',
  'data fragments isVoid data.view data.records data.definition': 'block:table',
  'data isVoid data.integration data.block data.props': 'block:integration',
  'data nodes data.format': 'block:updates',
  'data nodes data.date': 'block:update',
  'data nodes data.ref': 'inline:link',
  'data isVoid data.code': 'inline:emoji',
  'data isVoid data.icon': 'inline:icon',
  'data isVoid data.expression': 'inline:expression',
  'fragments isVoid nodes': 'inline:annotation',
  '': 'mark:bold mark:italic mark:code mark:keyboard mark:strikethrough mark:superscript mark:subscript',
  'data data.text data.background': 'mark:color',
};

export const REQUIRED: ReadonlyMap<string, string[]> = new Map(
  Object.entries(BY_FIELDS).flatMap(([fields, kinds]) =>
    kinds.split(' ').map((kind) => [kind, fields === '' ? [] : fields.split(' ')] as const),
  ),
);

const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function requireFields(node: Value, fields: string[], path: string, what: string): void {
  for (const field of fields) {
    const [head, inner] = field.split('.') as [string, string | undefined];
    const holder = inner === undefined ? node : node.data;
    const name = inner ?? head;
    if (!isObject(holder) || !Object.hasOwn(holder, name)) {
      throw new DocumentModelError(`${path}/${field.replace('.', '/')}`, `is required (${what})`);
    }
  }
}

function check(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) check(item, `${path}/${i}`);
    return;
  }
  if (!isObject(value)) return;
  const { object, type } = value;
  if (object === 'leaf') requireFields(value, ['text', 'marks'], path, 'a leaf');
  else if (object === 'text') requireFields(value, ['leaves'], path, 'a text');
  else if (object === 'fragment') requireFields(value, ['nodes'], path, 'a fragment');
  else if (typeof object === 'string' && typeof type === 'string') {
    const fields = REQUIRED.get(`${object}:${type}`);
    if (fields) requireFields(value, fields, path, `a "${type}" ${object}`);
  }
  // Children only: `data` is the block's own (a table's records are not nodes).
  for (const name of ['nodes', 'fragments', 'leaves', 'marks']) {
    if (Array.isArray(value[name])) check(value[name], `${path}/${name}`);
  }
}

/** Throws {@link DocumentModelError} at the first object lacking a property the format requires. */
export function assertRequired(document: Value): void {
  check(document.nodes, 'nodes');
}
