/**
 * The one check of a URL that reaches an `href` or `src` of rendered HTML: only web addresses
 * (http, https), relative URLs, `mailto:`/`tel:` links and `data:` images pass; anything else
 * (`javascript:`, `vbscript:`, `data:text/html`, unknown schemes) is refused, so the renderer leaves
 * the element inert. Also the patterns the input schemas use for URL fields, and the importers'
 * test of script URLs, so every rule about URL schemes lives here.
 *
 * The scheme is read as a browser reads it: the URL parser first drops leading and trailing C0
 * controls and spaces and every tab and newline (`java\tscript:` is `javascript:`), and a scheme is
 * case-insensitive. Character references (`&#58;`) need no care: rendered pages never build HTML
 * from strings, so a URL's `&` is serialized as `&amp;` and reaches the browser as the text it is.
 */

/** Where a URL is used: a link's target, or an image's source (which may also be a `data:` image). */
export type UrlUse = 'link' | 'image';

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const WEB_SCHEMES = new Set(['http', 'https']);
const LINK_SCHEMES = new Set(['mailto', 'tel']);
/** `data:` images of raster formats and SVG (an `<img>` never runs an SVG's scripts). */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|jpg|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)[;,]/i;

/** The URL as a browser's URL parser sees it before reading the scheme. */
function normalize(url: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls are what the URL parser strips.
  return url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

/** The URL's scheme, lower-cased; null for a relative URL (path, query or fragment). */
export function urlScheme(url: string): string | null {
  return SCHEME.exec(normalize(url))?.[1]?.toLowerCase() ?? null;
}

/**
 * The URL to put in an `href` (or, for `image`, a `src`), normalized as the browser would; null when
 * it must not be there (the caller renders the element without it).
 */
export function safeUrl(url: string | null | undefined, use: UrlUse = 'link'): string | null {
  if (typeof url !== 'string') return null;
  const clean = normalize(url);
  if (clean === '') return null;
  const scheme = SCHEME.exec(clean)?.[1]?.toLowerCase();
  if (scheme === undefined || WEB_SCHEMES.has(scheme)) return clean;
  if (use === 'link' && LINK_SCHEMES.has(scheme)) return clean;
  if (use === 'image' && scheme === 'data' && DATA_IMAGE.test(clean)) return clean;
  return null;
}

/**
 * A URL that runs code or shows a document of its own when followed (`javascript:`, `vbscript:`,
 * a `data:` URL other than an image): importers keep the text of such a link, not the link.
 */
export function isScriptUrl(url: string): boolean {
  const scheme = urlScheme(url);
  if (scheme === 'javascript' || scheme === 'vbscript') return true;
  return scheme === 'data' && !DATA_IMAGE.test(normalize(url));
}

/** For JSON schemas (Ajv, `u` flag): an absolute http(s) URL, the scheme in any case. */
export const WEB_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';
/** For JSON schemas: a link's absolute URL, http(s) or `mailto:`. */
export const LINK_URL_PATTERN = '^(?:[Hh][Tt][Tt][Pp][Ss]?://|[Mm][Aa][Ii][Ll][Tt][Oo]:)';
