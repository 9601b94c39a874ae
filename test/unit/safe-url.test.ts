/**
 * The one check of URLs that reach an `href` or `src` of a published page (src/lib/safe-url.ts),
 * and the last pass of the renderer that applies it to every URL attribute of a page.
 */
import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../src/content/links.js';
import { documentToMarkdown, markdownToDocument } from '../../src/content/markdown.js';
import {
  isScriptUrl,
  LINK_URL_PATTERN,
  safeUrl,
  type UrlUse,
  urlScheme,
  WEB_URL_PATTERN,
} from '../../src/lib/safe-url.js';
import { fileType } from '../../src/published/headers.js';
import { sanitizeUrls } from '../../src/published/render/url-attributes.js';

const SVG = 'data:image/svg+xml,%3Csvg%3E%3C/svg%3E';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** [url, use, what safeUrl answers (null: refused)]. */
const CASES: Array<[string, UrlUse, string | null]> = [
  // Web addresses, relative URLs and fragments pass, as given.
  ['https://example.com/a?b=c#d', 'link', 'https://example.com/a?b=c#d'],
  ['http://example.com', 'link', 'http://example.com'],
  ['HTTPS://EXAMPLE.COM', 'link', 'HTTPS://EXAMPLE.COM'],
  ['//cdn.example.com/x.png', 'image', '//cdn.example.com/x.png'],
  ['/sites/acme/docs/page', 'link', '/sites/acme/docs/page'],
  ['../other.md', 'link', '../other.md'],
  ['#section', 'link', '#section'],
  ['?q=1', 'link', '?q=1'],
  ['mailto:help@example.com', 'link', 'mailto:help@example.com'],
  ['tel:+331234', 'link', 'tel:+331234'],
  // What the browser's URL parser strips is stripped here too.
  ['  https://example.com  ', 'link', 'https://example.com'],
  ['ht\ttps://exa\nmple.com', 'link', 'https://example.com'],
  // Images: web addresses and data: images, never a data: document.
  ['https://example.com/logo.png', 'image', 'https://example.com/logo.png'],
  [PNG, 'image', PNG],
  [SVG, 'image', SVG],
  ['DATA:IMAGE/PNG;base64,AAAA', 'image', 'DATA:IMAGE/PNG;base64,AAAA'],
  // Script URLs in every disguise.
  ['javascript:alert(1)', 'link', null],
  ['JaVaScRiPt:alert(1)', 'link', null],
  ['java\tscript:alert(1)', 'link', null],
  ['java\nscript:alert(1)', 'link', null],
  ['java\rscript:alert(1)', 'link', null],
  ['   javascript:alert(1)', 'link', null],
  ['\u0000javascript:alert(1)', 'link', null],
  ['\u0001\u001fjavascript:alert(1)', 'link', null],
  ['javascript:alert(1)\u0000', 'link', null],
  ['javascript:alert(1)', 'image', null],
  ['vbscript:msgbox(1)', 'link', null],
  ['VBScript:msgbox(1)', 'link', null],
  ['data:text/html,<script>alert(1)</script>', 'link', null],
  ['data:text/html;base64,PHNjcmlwdD4=', 'image', null],
  [PNG, 'link', null],
  [SVG, 'link', null],
  ['data:image/svg', 'image', null],
  ['mailto:help@example.com', 'image', null],
  // Unknown schemes and empty values.
  ['file:///etc/passwd', 'link', null],
  ['blob:https://example.com/uuid', 'link', null],
  ['ftp://example.com', 'link', null],
  ['intent://x#Intent;end', 'link', null],
  ['', 'link', null],
  [' \t ', 'link', null],
  // Not a scheme for a browser either (the colon is not right after scheme characters): a relative path.
  ['javascript :alert(1)', 'link', 'javascript :alert(1)'],
  ['\u00a0javascript:alert(1)', 'link', '\u00a0javascript:alert(1)'],
  ['&#106;avascript:alert(1)', 'link', '&#106;avascript:alert(1)'],
];

describe('safeUrl', () => {
  it.each(CASES)('%j as %s → %j', (url, use, expected) => {
    expect(safeUrl(url, use)).toBe(expected);
  });

  it('what it lets through is http(s), mailto/tel, a data image, or has no scheme at all (as a browser reads it)', () => {
    for (const [url, use] of CASES) {
      const safe = safeUrl(url, use);
      if (safe === null) continue;
      // The WHATWG URL parser, against a base: a relative URL takes the base's scheme.
      const scheme = new URL(safe, 'https://base.test/dir/page').protocol;
      expect(['https:', 'http:', ...(use === 'link' ? ['mailto:', 'tel:'] : ['data:'])]).toContain(scheme);
    }
  });

  it('refuses what is not a string', () => {
    expect(safeUrl(undefined)).toBeNull();
    expect(safeUrl(null)).toBeNull();
  });
});

describe('urlScheme and isScriptUrl', () => {
  it.each([
    ['https://x.test', 'https', false],
    ['  JavaScript:alert(1)', 'javascript', true],
    ['java\tscript:alert(1)', 'javascript', true],
    ['vbscript:x', 'vbscript', true],
    ['data:text/html,x', 'data', true],
    [PNG, 'data', false],
    ['./page.md', null, false],
    ['#anchor', null, false],
  ] as const)('%j: scheme %j, script %s', (url, scheme, script) => {
    expect(urlScheme(url)).toBe(scheme);
    expect(isScriptUrl(url)).toBe(script);
  });
});

describe('the schema patterns', () => {
  it.each([
    ['https://example.com', true, true],
    ['HTTP://example.com', true, true],
    ['mailto:help@example.com', false, true],
    ['javascript:alert(1)', false, false],
    [' https://example.com', false, false],
    ['javascript://%0aalert(1)', false, false],
    ['/relative', false, false],
  ] as const)('%j: web %s, link %s', (url, web, link) => {
    expect(new RegExp(WEB_URL_PATTERN, 'u').test(url)).toBe(web);
    expect(new RegExp(LINK_URL_PATTERN, 'u').test(url)).toBe(link);
  });
});

describe('sanitizeUrls (the last pass over a rendered page)', () => {
  it('removes every URL attribute a page may not have, and keeps the element and the good ones', () => {
    const tree: Root = {
      type: 'root',
      children: [
        h('a', { href: 'JaVaScRiPt:alert(1)' }, ['bad link']),
        h('a', { href: ' https://example.com ' }, ['good link']),
        h('img', { src: 'data:text/html,x', srcSet: 'https://x.test/a.png 1x' }),
        h('img', { src: PNG }),
        h('link', { rel: 'icon', href: SVG }),
        h('link', { rel: 'stylesheet', href: SVG }),
        h('form', { action: 'vbscript:x' }, [h('button', { formAction: 'java\tscript:x' })]),
        h('template', [h('a', { href: 'javascript:alert(2)' })]),
      ],
    };
    expect(toHtml(sanitizeUrls(tree))).toBe(
      [
        '<a>bad link</a>',
        '<a href="https://example.com">good link</a>',
        '<img>',
        `<img src="${PNG}">`,
        `<link rel="icon" href="${SVG}">`,
        '<link rel="stylesheet">',
        '<form><button></button></form>',
        '<template><a></a></template>',
      ].join(''),
    );
  });
});

describe('the Markdown importer', () => {
  it('keeps the text of script URLs in links, images and embeds, never the URL as a reference', () => {
    const d = markdownToDocument(
      [
        '[tab](<java\tscript:alert(1)>) [upper](JAVASCRIPT:alert(2)) [vb](vbscript:x) [ok](https://x.test)',
        '',
        '![an image](javascript:alert(3)) ![data image](data:image/png;base64,AAAA)',
        '',
        '{% embed url="javascript:alert(4)" %}',
        '',
        '{% embed url="https://video.test/v" %}',
      ].join('\n'),
    );
    expect(extractLinks(d).map((l) => l.ref)).toEqual([
      { kind: 'url', url: 'https://x.test' },
      { kind: 'url', url: 'data:image/png;base64,AAAA' },
    ]);
    expect(d.nodes.filter((n) => n.type === 'embed').map((n) => (n as { data: { url: string } }).data)).toEqual([
      { url: 'https://video.test/v' },
    ]);
    expect(documentToMarkdown(d)).toBe(
      [
        'tab upper vb [ok](https://x.test)',
        '',
        'an image ![data image](data:image/png;base64,AAAA)',
        '',
        'javascript:alert(4)',
        '',
        '{% embed url="https://video.test/v" %}',
        '',
      ].join('\n'),
    );
  });
});

describe('fileType: how a space file is served (src/published/headers.ts)', () => {
  it.each([
    ['text/javascript', 'text/plain; charset=utf-8'],
    ['Application/JavaScript; charset=utf-8', 'text/plain; charset=utf-8'],
    ['application/x-javascript', 'text/plain; charset=utf-8'],
    ['text/ecmascript', 'text/plain; charset=utf-8'],
    ['text/javascript1.5', 'text/plain; charset=utf-8'],
    ['text/jscript', 'text/plain; charset=utf-8'],
    ['image/png', 'image/png'],
    ['application/json', 'application/json'],
    ['text/javascriptish', 'text/javascriptish'],
  ])('%s → %s', (type, served) => {
    expect(fileType(type)).toBe(served);
  });
});
