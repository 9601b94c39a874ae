/**
 * Hostile content for the published-site security tests: Markdown and JSON documents whose URLs try
 * every disguise of a script URL, and a check of rendered HTML that reads each URL attribute as the
 * browser would (parsed, character references decoded, tabs, newlines and leading controls dropped).
 */
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';

/** Script URLs as they may be written, each naming its own number so a leak says which. */
export const SCRIPT_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(2)',
  '  javascript:alert(3)',
  '\u0001javascript:alert(4)',
  'java\tscript:alert(5)',
  'vbscript:msgbox(6)',
  'data:text/html,<script>alert(7)</script>',
  'javascript&#58;alert(8)',
];

const leaf = (text: string) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] });

/** The Markdown page: embeds, links and images with script URLs, and one good link. */
export const HOSTILE_MARKDOWN = [
  '{% embed url="javascript:alert(11)" %}',
  '',
  '{% embed url="JaVaScRiPt:alert(12)" %}',
  '',
  '{% embed url=" \u0001java\tscript:alert(13)" %}',
  '',
  '{% embed url="data:text/html,<script>alert(14)</script>" %}',
  '',
  '[lower](javascript:alert(15)) [mixed](JaVaScRiPt:alert(16)) [entity](javascript&#58;alert(17))',
  '[tab](<java\tscript:alert(18)>) [vb](vbscript:msgbox(19)) [data](data:text/html,alert20)',
  '',
  '![image](javascript:alert(21)) ![entity image](&#106;avascript:alert(22))',
  '',
  '[fine](https://example.com/fine)',
].join('\n');

/** The JSON document: every block and inline that carries a URL, with script URLs. */
export function hostileDocument(): Record<string, unknown> {
  const link = (url: string) => ({
    object: 'inline',
    type: 'link',
    isVoid: false,
    data: { ref: { kind: 'url', url } },
    nodes: [leaf(`link ${url}`)],
  });
  const image = (url: string) => ({
    object: 'inline',
    type: 'inline-image',
    isVoid: true,
    data: { ref: { kind: 'url', url } },
  });
  return {
    object: 'document',
    data: {},
    nodes: [
      ...SCRIPT_URLS.map((url) => ({ object: 'block', type: 'embed', isVoid: true, data: { url } })),
      { object: 'block', type: 'paragraph', nodes: [leaf('Links: '), ...SCRIPT_URLS.map(link)] },
      { object: 'block', type: 'paragraph', nodes: [leaf('Images: '), ...SCRIPT_URLS.map(image)] },
      ...SCRIPT_URLS.map((url) => ({
        object: 'block',
        type: 'image',
        isVoid: true,
        data: { ref: { kind: 'url', url }, alt: 'block image' },
        fragments: [],
        nodes: [],
      })),
      // A block of the official format Bindery does not edit: a link card.
      ...SCRIPT_URLS.map((url) => ({
        object: 'block',
        type: 'content-ref',
        isVoid: true,
        data: { ref: { kind: 'url', url } },
        nodes: [leaf(`card ${url}`)],
      })),
      { object: 'block', type: 'paragraph', nodes: [link('https://example.com/fine')] },
    ],
  };
}

/** Attributes whose value a browser follows or loads (hast property names). */
const URL_PROPERTIES = [
  'href',
  'src',
  'srcSet',
  'action',
  'formAction',
  'poster',
  'cite',
  'background',
  'data',
  'ping',
  'xLinkHref',
  'manifest',
  'codeBase',
  'longDesc',
  'useMap',
];

/** How a browser reads a URL's start: tabs and newlines go, then leading and trailing C0 and spaces. */
function asBrowserReads(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls are what the URL parser strips.
  const trimmed = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  return trimmed.toLowerCase();
}

function elements(node: Root | Element, out: Element[] = []): Element[] {
  for (const child of node.children) {
    if (child.type === 'element') {
      out.push(child);
      elements(child, out);
      if (child.content) elements(child.content as unknown as Root, out);
    }
  }
  return out;
}

/**
 * Every URL attribute of `html` that would run a script or open a document of its own: `javascript:`
 * or `vbscript:` anywhere, `data:` outside an image's `src` or an icon. Empty when the page is safe.
 */
export function dangerousUrls(html: string): string[] {
  const found: string[] = [];
  for (const element of elements(fromHtml(html))) {
    for (const name of URL_PROPERTIES) {
      const raw = element.properties[name];
      if (raw === undefined || raw === null || raw === false) continue;
      const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      for (const value of values) {
        const url = asBrowserReads(value);
        const imageLike = name === 'src' || (element.tagName === 'link' && name === 'href');
        const dataImage = imageLike && url.startsWith('data:image/');
        if (/^(javascript|vbscript):/.test(url) || (url.startsWith('data:') && !dataImage)) {
          found.push(`<${element.tagName} ${name}="${value}">`);
        }
      }
    }
  }
  return found;
}
