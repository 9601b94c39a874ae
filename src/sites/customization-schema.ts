/**
 * The customization object of a site (and of a site space, as overrides): the keys of the product
 * spec, with the allowed values of the official document, plus the keys the official document
 * requires in its `SiteCustomizationSettings` (so the official client can round-trip a full object).
 *
 * {@link Customization} is the complete object, as returned (stored settings merged over
 * {@link DEFAULT_CUSTOMIZATION}). Writes take partial objects: {@link CustomizationInput} for the site
 * (every key optional, absent keys take the default), {@link CustomizationOverride} for a site space
 * (every key optional or null to drop the override). Only "section" objects (made with `section()`)
 * become partial; leaf values such as a `{light, dark}` color or a link stay whole.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { LINK_URL_PATTERN } from '../lib/safe-url.js';
import { Icon, StringEnum, WebUrl } from '../lib/schemas.js';

const sections = new WeakSet<object>();

/** An object whose keys are merged one by one (see the module comment). */
function section<T extends Parameters<typeof Type.Object>[0]>(properties: T) {
  const schema = Type.Object(properties, { additionalProperties: false });
  sections.add(schema);
  return schema;
}

const Color = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' });
const ThemedColor = Type.Object({ light: Color, dark: Color }, { additionalProperties: false });
/**
 * Every URL of the customization ends up in an `href` or `src` of the published site: only web
 * addresses are taken (a `javascript:` URL is a valid `uri`), and links may also be `mailto:`.
 */
const LinkUrl = Type.String({ format: 'uri', maxLength: 2048, pattern: LINK_URL_PATTERN });
const ThemedUrl = Type.Object({ light: WebUrl, dark: WebUrl }, { additionalProperties: false });
const Str = Type.String({ maxLength: 2048 });
/** The bounds of a site's title, which the customization's `title` replaces on the published site. */
const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });

const ref = <K extends string, P extends Parameters<typeof Type.Object>[0]>(kind: K, props: P) =>
  Type.Object({ kind: Type.Literal(kind), ...props }, { additionalProperties: false });
/**
 * A reference to content (`to` of links). `url` comes first: a union that matches no branch is
 * reported by its first branch's error, and a refused URL is the error worth naming.
 */
export const ContentRef = Type.Union([
  ref('url', { url: LinkUrl }),
  ref('file', { file: Str, space: Type.Optional(Str) }),
  ref('page', { page: Str, space: Type.Optional(Str) }),
  ref('anchor', { anchor: Str, space: Type.Optional(Str), page: Type.Optional(Str) }),
  ref('user', { user: Str }),
  ref('collection', { collection: Str }),
  ref('space', { space: Str }),
  ref('reusable-content', { reusableContent: Str, space: Type.Optional(Str) }),
  ref('tag', { tag: Str, space: Type.Optional(Str) }),
  ref('openapi', { spec: Str }),
]);

const ContentLink = Type.Object(
  { title: Type.String({ maxLength: 64 }), to: ContentRef },
  { additionalProperties: false },
);
const HeaderItem = Type.Object(
  {
    title: Type.String({ maxLength: 128 }),
    style: Type.Optional(StringEnum(['link', 'button-primary', 'button-secondary'] as const)),
    to: Type.Union([ContentRef, Type.Null()]),
    links: Type.Array(ContentLink, { maxItems: 50 }),
    condition: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);
const FooterGroup = Type.Object(
  { title: Type.String({ maxLength: 128 }), links: Type.Array(ContentLink, { maxItems: 50 }) },
  { additionalProperties: false },
);
const Enabled = () => section({ enabled: Type.Boolean() });

const FONTS = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
] as const;
const MONOSPACE_FONTS = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
] as const;
const CodeTheme = Type.Object(
  { light: Type.String({ maxLength: 64 }), dark: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const Customization = section({
  title: Type.Optional(SiteTitle),
  styling: section({
    theme: StringEnum(['clean', 'muted', 'bold', 'gradient'] as const),
    primaryColor: ThemedColor,
    tint: Type.Optional(Type.Object({ color: ThemedColor }, { additionalProperties: false })),
    infoColor: ThemedColor,
    successColor: ThemedColor,
    warningColor: ThemedColor,
    dangerColor: ThemedColor,
    corners: StringEnum(['straight', 'rounded', 'circular'] as const),
    depth: StringEnum(['subtle', 'flat'] as const),
    links: StringEnum(['default', 'accent'] as const),
    font: StringEnum(FONTS),
    monospaceFont: StringEnum(MONOSPACE_FONTS),
    background: StringEnum(['plain', 'match'] as const),
    icons: StringEnum(['regular', 'solid', 'duotone', 'light', 'thin'] as const),
    sidebar: section({
      background: StringEnum(['default', 'filled'] as const),
      list: StringEnum(['default', 'pill', 'line'] as const),
    }),
    search: StringEnum(['prominent', 'subtle'] as const),
    codeTheme: section({ default: CodeTheme, openapi: CodeTheme }),
  }),
  internationalization: section({
    locale: StringEnum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] as const),
  }),
  favicon: section({ icon: Type.Optional(ThemedUrl), emoji: Type.Optional(Icon) }),
  header: section({
    preset: StringEnum(['default', 'bold', 'contrast', 'custom', 'none'] as const),
    logo: Type.Optional(ThemedUrl),
    backgroundColor: Type.Optional(ThemedColor),
    linkColor: Type.Optional(ThemedColor),
    links: Type.Array(HeaderItem, { maxItems: 50 }),
  }),
  footer: section({
    logo: Type.Optional(ThemedUrl),
    groups: Type.Array(FooterGroup, { maxItems: 50 }),
    copyright: Type.Optional(Type.String({ maxLength: 512 })),
  }),
  announcement: Type.Optional(
    section({
      enabled: Type.Boolean(),
      message: Type.String({ minLength: 2, maxLength: 128 }),
      link: Type.Optional(ContentLink),
      style: StringEnum(['info', 'warning', 'danger', 'success'] as const),
    }),
  ),
  themes: section({
    default: StringEnum(['light', 'dark', 'system'] as const),
    toggeable: Type.Boolean(),
  }),
  pdf: Enabled(),
  feedback: Enabled(),
  aiSearch: Enabled(),
  advancedCustomization: Enabled(),
  pagination: Enabled(),
  trademark: Enabled(),
  ai: section({
    mode: StringEnum(['none', 'search', 'assistant'] as const),
    pageLinkSummaries: section({ enabled: Type.Boolean() }),
  }),
  git: section({ showEditLink: Type.Boolean() }),
  externalLinks: section({ target: StringEnum(['self', 'blank'] as const) }),
  pageActions: section({
    items: Type.Array(StringEnum(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const), {
      maxItems: 6,
    }),
  }),
  privacyPolicy: section({ url: Type.Optional(WebUrl) }),
  socialPreview: section({ url: Type.Optional(WebUrl) }),
  socialAccounts: Type.Array(
    Type.Object(
      {
        platform: StringEnum([
          'twitter',
          'instagram',
          'facebook',
          'linkedin',
          'github',
          'discord',
          'slack',
          'youtube',
          'tiktok',
          'reddit',
          'bluesky',
          'mastodon',
          'threads',
          'medium',
        ] as const),
        handle: Type.String({ minLength: 1, maxLength: 128 }),
        display: Type.Object({ footer: Type.Boolean(), header: Type.Boolean() }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    { maxItems: 10 },
  ),
  insights: section({ trackingCookie: Type.Boolean() }),
});

export type CustomizationObject = Static<typeof Customization>;

type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
type DeepPartialNullable<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartialNullable<T[K]> | null }
    : T;

export type CustomizationPatch = DeepPartial<CustomizationObject>;
export type CustomizationOverridePatch = DeepPartialNullable<CustomizationObject>;

type JsonSchema = { [key: string]: unknown };

const SCALARS = new Set(['string', 'boolean', 'number', 'integer']);

/**
 * `schema` or null. Scalars take `type: [t, 'null']` (and null among their `enum`): the app's Ajv
 * coerces types, and in a union would turn `null` into `false`/`""` before the scalar's constraints.
 */
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && SCALARS.has(schema.type)) {
    return {
      ...schema,
      type: [schema.type, 'null'],
      ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
    };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** The schema with every key of every section optional (and nullable when `nullable`). */
function partial(schema: TSchema, nullable: boolean): JsonSchema {
  const node = schema as unknown as JsonSchema;
  if (!sections.has(node)) return node;
  const properties = node.properties as Record<string, TSchema>;
  const relaxed: Record<string, JsonSchema> = {};
  for (const [key, value] of Object.entries(properties)) {
    const inner = partial(value, nullable);
    relaxed[key] = nullable ? orNull(inner) : inner;
  }
  const { required: _required, ...rest } = node;
  return { ...rest, properties: relaxed };
}

export const CustomizationInput = Type.Unsafe<CustomizationPatch>(partial(Customization, false));
export const CustomizationOverride = Type.Unsafe<CustomizationOverridePatch>(partial(Customization, true));

/**
 * The settings a site starts with; they satisfy both the spec's keys and every key the official
 * document requires, so any stored partial merged over them is a complete object.
 */
export const DEFAULT_CUSTOMIZATION: CustomizationObject = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#02B31C', dark: '#02B31C' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  aiSearch: { enabled: true },
  advancedCustomization: { enabled: true },
  pagination: { enabled: true },
  trademark: { enabled: true },
  ai: { mode: 'search', pageLinkSummaries: { enabled: false } },
  git: { showEditLink: false },
  externalLinks: { target: 'self' },
  pageActions: { items: ['markdown', 'pdf'] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};
