/**
 * fast-check arbitraries of documents of the official Document format (node_modules/@gitbook/api
 * spec: `JSONDocument`, `DocumentBlock*`, `DocumentInline*`, `DocumentText*`, `DocumentMark*`),
 * following its nesting rules: which blocks each container holds, what a link or an annotation
 * wraps, the fragments of images, expandables and tables. Optional properties (`key`, `meta`,
 * `isVoid` where optional, optional `data` fields) come and go; depth and widths stay small.
 */
import fc from 'fast-check';
import { tableArbitrary } from './table-arbitrary.js';

type Arb = fc.Arbitrary<unknown>;
const str = fc.string({ maxLength: 6 });
const word = fc.constantFrom('a', 'b c', 'Ünï', '😀', ' x ', '1');
const id = fc.stringMatching(/^[a-z0-9]{1,6}$/);
const small = <T>(arb: fc.Arbitrary<T>, min = 0) => fc.array(arb, { minLength: min, maxLength: 3 });

/** A record whose `optional` keys may be absent. */
function obj(required: Record<string, Arb>, optional: Record<string, Arb> = {}): Arb {
  return fc.record({ ...required, ...optional }, { requiredKeys: Object.keys(required), noNullPrototype: true });
}

const color = fc.constantFrom('default', 'green', 'blue', 'red', '$primary', '$danger');
const icon = fc.constantFrom('gear', 'book');
const length = fc.oneof(
  fc.integer({ min: 1, max: 900 }),
  obj({ unit: fc.constantFrom('px', '%'), value: fc.integer() }),
);
const meta = obj({ id });

const refUrl = obj({ kind: fc.constant('url'), url: fc.webUrl() });
const refFile = obj({ kind: fc.constant('file'), file: id }, { space: id });
const refOpenapi = obj({ kind: fc.constant('openapi'), spec: id });
const ref = fc.oneof(
  refUrl,
  refFile,
  obj({ kind: fc.constant('page'), page: id }, { space: id }),
  obj({ kind: fc.constant('anchor'), anchor: id }, { page: id, space: id }),
  obj({ kind: fc.constant('user'), user: id }),
  obj({ kind: fc.constant('space'), space: id }),
  obj({ kind: fc.constant('reusable-content'), reusableContent: id }, { space: id }),
  refOpenapi,
);

const plainMark = (type: string) => obj({ object: fc.constant('mark'), type: fc.constant(type) });
export const mark = fc.oneof(
  ...['bold', 'italic', 'code', 'keyboard', 'strikethrough', 'superscript', 'subscript'].map(plainMark),
  obj({ object: fc.constant('mark'), type: fc.constant('color'), data: obj({ text: color, background: color }) }),
);
const leaf = obj({ object: fc.constant('leaf'), text: fc.oneof(str, word), marks: small(mark) });
export const text = obj({ object: fc.constant('text'), leaves: small(leaf) }, { key: id });

const element = (object: 'block' | 'inline', type: string, required: Record<string, Arb>, optional = {}) =>
  obj({ object: fc.constant(object), type: fc.constant(type), ...required }, { key: id, ...optional });
const isVoid = fc.constant(true);

const inlineImage = element('inline', 'inline-image', {
  isVoid,
  data: obj(
    { ref: fc.oneof(refUrl, refFile) },
    { refDark: refUrl, caption: str, alt: str, size: fc.constantFrom('original', 'line') },
  ),
});
const voidInlines = [
  inlineImage,
  element('inline', 'emoji', { isVoid, data: obj({ code: fc.constantFrom('1f600', '2764') }) }),
  element('inline', 'icon', { isVoid, data: obj({ icon }, { color }) }),
  element('inline', 'expression', { isVoid, data: obj({ expression: str }) }),
  element('inline', 'inline-math', { isVoid, data: obj({ formula: str }) }),
  element('inline', 'mention', { isVoid, data: obj({ ref }) }),
  element('inline', 'button', {
    isVoid,
    data: fc.oneof(
      obj(
        { label: str, kind: fc.constantFrom('primary', 'secondary'), ref },
        { size: fc.constantFrom('small', 'large'), icon },
      ),
      obj({ label: str, kind: fc.constant('primary'), action: obj({ action: fc.constant('search') }, { query: str }) }),
    ),
  }),
];
const link = element(
  'inline',
  'link',
  { data: obj({ ref }), nodes: small(fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: inlineImage })) },
  { isVoid: fc.constant(false) },
);

function annotation(depth: number): Arb {
  const body = obj(
    {
      object: fc.constant('fragment'),
      type: fc.constant('annotation-body'),
      nodes: small(fc.oneof(...essentials(depth - 1), code()), 1),
    },
    { fragment: id, key: id },
  );
  return element(
    'inline',
    'annotation',
    { isVoid: fc.constant(false), nodes: small(text), fragments: small(body) },
    { data: fc.constant({}) },
  );
}

export function inlines(depth: number): Arb {
  const kinds: Arb[] = [text, text, link, ...voidInlines];
  if (depth > 0) kinds.push(annotation(depth));
  return small(fc.oneof(...kinds));
}

const align = fc.constantFrom('start', 'center', 'end');
const paragraph = (depth: number) =>
  element('block', 'paragraph', { nodes: inlines(depth) }, { isVoid: fc.constant(false), data: obj({}, { align }) });
const heading = (depth: number) =>
  element(
    'block',
    'heading',
    { nodes: inlines(depth), data: obj({}, { id: fc.stringMatching(/^[-a-z0-9.+_]{1,8}$/), align }) },
    { meta, isVoid: fc.constant(false) },
  ).map((block) => ({
    ...(block as object),
    type: `heading-${1 + ((block as { nodes: unknown[] }).nodes.length % 3)}`,
  }));
const divider = element('block', 'divider', { isVoid, data: fc.constant({}) });

function listItem(depth: number, task: boolean): Arb {
  const children =
    depth > 0 ? [...essentials(depth - 1), code(), hint(depth - 1), quote(depth - 1), math] : [paragraph(0)];
  return element(
    'block',
    'list-item',
    { nodes: small(fc.oneof(...children)) },
    { data: task ? obj({}, { checked: fc.boolean() }) : fc.constant({}), isVoid: fc.constant(false) },
  );
}

function lists(depth: number): Arb[] {
  return [
    element('block', 'list-ordered', {
      data: obj({}, { start: fc.integer({ min: 0, max: 9 }) }),
      nodes: small(listItem(depth, false)),
    }),
    element('block', 'list-unordered', { nodes: small(listItem(depth, false)) }, { data: fc.constant({}) }),
    element('block', 'list-tasks', { nodes: small(listItem(depth, true)) }, { data: fc.constant({}) }),
  ];
}

/** The official `DocumentBlocksEssentials`: paragraph, headings, lists, divider. */
export function essentials(depth: number): Arb[] {
  return [paragraph(depth), paragraph(depth), heading(depth), ...(depth >= 0 ? lists(depth) : []), divider];
}

const codeLine = element('block', 'code-line', {
  nodes: small(fc.oneof(text, voidInlines[3] as Arb)),
  data: obj({}, { highlighted: fc.boolean() }),
});
const code = () =>
  element('block', 'code', {
    data: obj(
      {},
      {
        syntax: fc.constantFrom('js', 'ts'),
        title: str,
        overflow: fc.constantFrom('scroll', 'wrap'),
        lineNumbers: fc.boolean(),
        fullWidth: fc.boolean(),
        expandable: fc.boolean(),
        collapsedLineCount: fc.integer({ min: 1, max: 9 }),
      },
    ),
    nodes: small(codeLine),
  });
const math = element('block', 'math', { isVoid, data: obj({ formula: str }) });
const embed = element('block', 'embed', { isVoid, data: obj({ url: fc.webUrl() }, { fullWidth: fc.boolean() }) });
const file = element('block', 'file', { isVoid, data: obj({ ref: refFile }) });
const drawing = element('block', 'drawing', { isVoid, data: obj({}, { ref: refFile }) });
const contentRef = element('block', 'content-ref', { isVoid, data: obj({ ref }) });
const reusable = element(
  'block',
  'reusable-content',
  { isVoid, data: obj({ ref: obj({ kind: fc.constant('reusable-content'), reusableContent: id }) }) },
  { meta: obj({}, { token: str }) },
);
const integration = element(
  'block',
  'integration',
  {
    isVoid,
    data: obj(
      { integration: id, block: id, props: fc.dictionary(id, str, { maxKeys: 2, noNullPrototype: true }) },
      { url: fc.webUrl(), fullWidth: fc.boolean() },
    ),
  },
  { meta: obj({}, { spaceId: id }) },
);
const pointer = { path: fc.constantFrom('/pets', '/users/{id}'), method: fc.constantFrom('get', 'post') };
const openapi = [
  element(
    'block',
    'swagger',
    {
      isVoid,
      data: obj({ ...pointer, ref: fc.oneof(refFile, refUrl) }, { expanded: fc.boolean(), fullWidth: fc.boolean() }),
    },
    { meta },
  ),
  element('block', 'openapi-operation', { isVoid, data: obj({ ...pointer, ref: refOpenapi }) }, { meta }),
  element('block', 'openapi-schemas', { isVoid, data: obj({ ref: refOpenapi, schemas: small(id) }) }, { meta }),
  element('block', 'openapi-webhook', { isVoid, data: obj({ name: id, ref: refOpenapi }) }, { meta }),
];

const caption = (depth: number) =>
  obj(
    { object: fc.constant('fragment'), fragment: fc.constant('caption'), nodes: small(paragraph(depth)) },
    { type: fc.constant('caption'), key: id },
  );
const image = (depth: number) =>
  element('block', 'image', {
    isVoid,
    data: obj({ ref: fc.oneof(refUrl, refFile) }, { refDark: refUrl, width: length, height: length, alt: str }),
    fragments: small(caption(depth)),
  });
const images = (depth: number) =>
  element('block', 'images', {
    isVoid: fc.constant(false),
    data: obj({}, { align: fc.constantFrom('center', 'left'), fullWidth: fc.boolean(), withFrame: fc.boolean() }),
    nodes: small(image(depth), 1),
  });

function hint(depth: number): Arb {
  return element(
    'block',
    'hint',
    {
      data: obj({ style: fc.constantFrom('info', 'warning', 'danger', 'success') }, { icon }),
      nodes: small(fc.oneof(...essentials(depth), embed, table(depth))),
    },
    { isVoid: fc.constant(false) },
  );
}
function quote(depth: number): Arb {
  const children = [...essentials(depth)];
  if (depth > 0) children.push(quote(depth - 1));
  return element(
    'block',
    'blockquote',
    { nodes: small(fc.oneof(...children)) },
    { isVoid: fc.constant(false), data: fc.constant({}) },
  );
}
const prompt = element('block', 'prompt', {
  data: obj(
    { description: str },
    { icon, openInAIProviders: fc.boolean(), defaultExpanded: fc.constantFrom('hidden', 'full') },
  ),
  nodes: code().map((c) => [c]),
});

/** A table (table-arbitrary.ts), its text cells' fragments holding paragraphs. */
function table(depth: number): Arb {
  return tableArbitrary({ cell: paragraph(depth - 1), ref, imageRef: fc.oneof(refFile, refUrl), id, str });
}

function expandable(depth: number): Arb {
  const title = obj(
    {
      object: fc.constant('fragment'),
      fragment: fc.constant('expandable-title'),
      type: fc.constant('expandable-title'),
      nodes: paragraph(depth).map((p) => [p]),
    },
    { key: id },
  );
  const body = obj(
    {
      object: fc.constant('fragment'),
      fragment: fc.constant('expandable-body'),
      type: fc.constant('expandable-body'),
      nodes: small(fc.oneof(...essentials(depth), file, images(depth), code(), hint(depth), quote(depth), reusable), 1),
    },
    { key: id },
  );
  return element(
    'block',
    'expandable',
    { isVoid, data: obj({}, { defaultExpanded: fc.boolean() }), fragments: fc.tuple(title, body) },
    { meta },
  );
}

/** Blocks a tab, a step or an update holds (DocumentBlockTabsItem & co). */
function rich(depth: number): Arb[] {
  return [
    ...essentials(depth),
    contentRef,
    code(),
    embed,
    file,
    images(depth),
    drawing,
    hint(depth),
    prompt,
    quote(depth),
    math,
    integration,
  ];
}

function containers(depth: number): Arb[] {
  const d = depth - 1;
  const tabsItem = element(
    'block',
    'tabs-item',
    { nodes: small(fc.oneof(...rich(d))), data: obj({}, { title: str, icon, slug: id }) },
    { meta },
  );
  const step = element('block', 'stepper-step', {
    nodes: small(fc.oneof(...rich(d), expandable(d))),
    data: obj({}, { icon }),
  });
  const column = element('block', 'column', {
    nodes: small(fc.oneof(...rich(d), table(d), expandable(d))),
    data: obj({}, { width: length, verticalAlignment: fc.constantFrom('top', 'middle') }),
  });
  const update = element('block', 'update', {
    nodes: small(fc.oneof(...rich(d))),
    data: obj(
      { date: fc.constant('2026-01-02T00:00:00.000Z') },
      { tags: small(obj({ kind: fc.constant('tag'), tag: id })) },
    ),
  });
  return [
    element('block', 'tabs', { nodes: small(tabsItem) }, { data: obj({}, { fullWidth: fc.boolean() }) }),
    element('block', 'stepper', { nodes: small(step) }, { data: fc.constant({}) }),
    element('block', 'columns', {
      isVoid: fc.constant(false),
      data: obj({}, { fullWidth: fc.boolean() }),
      nodes: small(column),
    }),
    element('block', 'updates', { data: obj({ format: fc.constantFrom('numeric', 'full') }), nodes: small(update) }),
    element('block', 'if', { data: obj({ expression: str }), nodes: small(fc.oneof(...essentials(d))) }),
    expandable(d),
  ];
}

/** Blocks of the official `DocumentBlocksTopLevels`. */
export function topLevel(depth: number): Arb {
  const kinds = [...rich(depth), table(depth), reusable, ...openapi];
  if (depth > 0) kinds.push(...containers(depth));
  return fc.oneof(...kinds);
}

/** A whole document: `JSONDocument`. */
export const documentArbitrary = obj(
  {
    object: fc.constant('document'),
    data: obj({}, { schemaVersion: fc.integer({ min: 1, max: 3 }) }),
    nodes: small(topLevel(2)),
  },
  { meta: obj({}, { token: str }) },
);
