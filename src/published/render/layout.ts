/**
 * The shell of every published page: `<head>` (title, description, robots, canonical, favicon,
 * theme), the announcement, the header (logo and title, header links, search box, theme toggle,
 * mobile menu), the section tabs, the sidebar, the main content with its table of contents, and the
 * footer. Built as one hast tree and serialized by hast-util-to-html.
 */
import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h, s } from 'hastscript';
import type { SiteSectionRow } from '../../db/schema.js';
import { safeUrl } from '../../lib/safe-url.js';
import type { CustomizationObject } from '../../sites/customization-schema.js';
import { type SiteReader, type SpaceContent, urlLink } from '../reader.js';
import { colorVariables } from './colors.js';
import type { TocEntry } from './document.js';
import { sectionTabs, variantSwitcher } from './nav.js';
import { HEAD_SCRIPT } from './script.js';
import { sanitizeUrls } from './url-attributes.js';

const text = (value: string): ElementContent => ({ type: 'text', value });

type ContentLink = { title: string; to: Parameters<SiteReader['link']>[0] | { kind: string } };

export interface Shell {
  reader: SiteReader;
  customization: CustomizationObject;
  section: SiteSectionRow | null;
  content: SpaceContent | null;
  assets: { css: string; js: string };
  /** Ask search engines not to index (every site but a public one). */
  noindex: boolean;
  /** Show the search box (not in a change request's preview, which answers no search: change-preview.ts). */
  search?: boolean;
}

export interface PageParts {
  /** The document title (the site's title is appended). */
  title: string;
  description?: string;
  /** Absolute URL of the canonical address. */
  canonical?: string;
  /** The sidebar (page tree, variant switcher added here); absent on pages outside a site space. */
  sidebar?: Element | null;
  main: ElementContent[];
  toc?: TocEntry[];
}

export function siteTitle(shell: Pick<Shell, 'customization' | 'reader'>): string {
  return shell.customization.title ?? shell.reader.model.site.title;
}

/** The favicon of a site that set none (GitBook also shows a default icon). */
const DEFAULT_FAVICON = '📖';

/** An emoji favicon, as an SVG data URI (built as a hast tree, then URI-encoded). */
function emojiIcon(emoji: string): string {
  const svg = s('svg', { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 100 100' }, [
    s('text', { y: '.9em', fontSize: '90' }, [text(emoji)]),
  ]);
  return `data:image/svg+xml,${encodeURIComponent(toHtml(svg, { space: 'svg' }))}`;
}

/** A `{light, dark}` pair of image URLs (logos, favicon), when both are images a page may load. */
function themedImage(pair: { light: string; dark: string } | undefined): { light: string; dark: string } | null {
  const light = safeUrl(pair?.light, 'image');
  const dark = safeUrl(pair?.dark, 'image');
  return light && dark ? { light, dark } : null;
}

function head(shell: Shell, parts: PageParts): Element {
  const c = shell.customization;
  const title = siteTitle(shell);
  const icon = themedImage(c.favicon.icon);
  const favicon = icon
    ? [
        h('link', { rel: 'icon', href: icon.light, media: '(prefers-color-scheme: light)' }),
        h('link', { rel: 'icon', href: icon.dark, media: '(prefers-color-scheme: dark)' }),
      ]
    : // Without one, browsers ask for /favicon.ico at the origin, outside the site: a 404 on every visit.
      [h('link', { rel: 'icon', href: emojiIcon(c.favicon.emoji ?? DEFAULT_FAVICON) })];
  const colors = colorVariables({
    primary: c.styling.primaryColor,
    tint: c.styling.tint?.color,
    hints: {
      info: c.styling.infoColor,
      success: c.styling.successColor,
      warning: c.styling.warningColor,
      danger: c.styling.dangerColor,
    },
  });
  return h('head', [
    h('meta', { charSet: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', [text(parts.title === title ? title : `${parts.title} | ${title}`)]),
    ...(parts.description ? [h('meta', { name: 'description', content: parts.description })] : []),
    ...(shell.noindex ? [h('meta', { name: 'robots', content: 'noindex, nofollow' })] : []),
    ...(parts.canonical ? [h('link', { rel: 'canonical', href: parts.canonical })] : []),
    h('meta', { name: 'generator', content: 'Bindery' }),
    ...favicon,
    h('link', { rel: 'stylesheet', href: shell.assets.css }),
    // Only colors checked as #rgb / #rrggbb reach this rule (colors.ts); it is the site's palette.
    h('style', [text(`:root{${colors}}`)]),
    h('script', [text(HEAD_SCRIPT)]),
    h('script', { src: shell.assets.js, defer: true }),
  ]);
}

function announcement(shell: Shell): Element | null {
  const a = shell.customization.announcement;
  if (!a?.enabled) return null;
  const link = a.link ? resolve(shell, a.link) : null;
  return h(`div.announcement.a-${a.style}`, { role: 'region', 'aria-label': 'Announcement' }, [
    h('span', [text(a.message)]),
    ...(link && a.link ? [link] : []),
  ]);
}

/**
 * A customization link (`{title, to}`) as an anchor; null when its target is not on the site (or is
 * no URL a page may link to). A page without content resolves URLs only, through the same check.
 */
function resolve(shell: Shell, item: ContentLink, className?: string): Element | null {
  const { reader, content } = shell;
  const to = item.to as Parameters<SiteReader['link']>[0];
  if (!['url', 'page', 'anchor', 'file'].includes(to.kind)) return null;
  const link = content ? reader.link(to, content) : to.kind === 'url' ? urlLink(to.url) : null;
  const href = link ? safeUrl(link.href) : null;
  if (!link || !href) return null;
  const props: Record<string, string> = { href };
  if (link.external) {
    props.rel = 'noopener';
    if (shell.customization.externalLinks.target === 'blank') props.target = '_blank';
  }
  return h(className ? `a.${className}` : 'a', props, [text(item.title)]);
}

function header(shell: Shell): Element {
  const c = shell.customization;
  const { reader } = shell;
  const title = siteTitle(shell);
  const logo = themedImage(c.header.logo);
  const brand = h('a.brand', { href: reader.href('') }, [
    ...(logo
      ? [h('img.logo-light', { src: logo.light, alt: title }), h('img.logo-dark', { src: logo.dark, alt: title })]
      : [h('span', [text(title)])]),
  ]);
  const links = c.header.links.flatMap((item) => {
    const style = item.style && item.style !== 'link' ? item.style : undefined;
    const subs = item.links.flatMap((sub) => resolve(shell, sub) ?? []);
    if (subs.length > 0) {
      return [
        h('details.menu', [
          h('summary', [text(item.title)]),
          h(
            'ul.menu-list',
            subs.map((a) => h('li', [a])),
          ),
        ]),
      ];
    }
    const own = item.to ? resolve(shell, { title: item.title, to: item.to }, style) : null;
    return own ? [own] : [];
  });
  const search = h(
    'form.search',
    { role: 'search', action: reader.href('/~search'), method: 'get', 'data-endpoint': reader.href('/~search.json') },
    [
      h('label.visually-hidden', { for: 'site-search' }, [text(`Search ${title}`)]),
      h('input#site-search', { type: 'search', name: 'q', placeholder: 'Search…', required: true }),
    ],
  );
  const controls: Element[] = [];
  if (c.themes.toggeable) {
    controls.push(
      h('button.icon-button.theme-toggle.js-only', { type: 'button', 'aria-label': 'Dark theme' }, [
        h('span.sun', { 'aria-hidden': 'true' }, [text('☀')]),
        h('span.moon', { 'aria-hidden': 'true' }, [text('☾')]),
      ]),
    );
  }
  if (shell.content) {
    controls.push(
      h(
        'button.icon-button.menu-button.js-only',
        { type: 'button', 'aria-label': 'Menu', 'aria-controls': 'sidebar', 'aria-expanded': 'false' },
        [h('span', { 'aria-hidden': 'true' }, [text('☰')])],
      ),
    );
  }
  const tabs = sectionTabs(reader, shell.section, shell.customization.externalLinks.target);
  return h('header.site-header', [
    h('div.header-row', [
      brand,
      ...(links.length > 0 ? [h('nav.header-links', { 'aria-label': 'Links' }, links)] : []),
      ...(shell.search === false ? [] : [search]),
      ...controls,
    ]),
    ...(tabs ? [tabs] : []),
  ]);
}

function footer(shell: Shell): Element | null {
  const c = shell.customization;
  const groups = c.footer.groups.flatMap((group) => {
    const links = group.links.flatMap((l) => resolve(shell, l) ?? []);
    if (links.length === 0) return [];
    return [
      h('div', [
        h('h2', [text(group.title)]),
        h(
          'ul',
          links.map((a) => h('li', [a])),
        ),
      ]),
    ];
  });
  const meta: ElementContent[] = [];
  if (c.footer.copyright) meta.push(h('span', [text(c.footer.copyright)]));
  const privacy = safeUrl(c.privacyPolicy.url);
  if (privacy) meta.push(h('a', { href: privacy, rel: 'noopener' }, [text('Privacy policy')]));
  if (c.trademark.enabled) meta.push(h('span', [text('Powered by Bindery')]));
  if (groups.length === 0 && meta.length === 0) return null;
  const logo = themedImage(c.footer.logo);
  return h('footer.site-footer', [
    h('div.footer-inner', [
      ...(logo
        ? [
            h('img.logo-light', { src: logo.light, alt: '', height: 28 }),
            h('img.logo-dark', { src: logo.dark, alt: '', height: 28 }),
          ]
        : []),
      ...groups,
      ...(meta.length > 0 ? [h('div.footer-meta', meta)] : []),
    ]),
  ]);
}

function toc(entries: TocEntry[] | undefined): Element | null {
  if (!entries || entries.length < 2) return null;
  // Indented relative to the page's top heading level (a page may start at heading-2).
  const top = Math.min(...entries.map((e) => e.depth));
  return h('aside.toc', { 'aria-labelledby': 'toc-title' }, [
    h('h2#toc-title', [text('On this page')]),
    h(
      'ul',
      entries.map((e) => h(`li.depth-${e.depth - top + 1}`, [h('a', { href: `#${e.id}` }, [text(e.text)])])),
    ),
  ]);
}

/** The whole HTML document of a page. */
export function renderShell(shell: Shell, parts: PageParts): string {
  const c = shell.customization;
  const switcher = shell.content ? variantSwitcher(shell.reader, shell.content) : null;
  const sidebar =
    parts.sidebar || switcher
      ? h('aside.sidebar#sidebar', { 'aria-label': 'Site navigation' }, [
          ...(switcher ? [switcher] : []),
          ...(parts.sidebar ? [parts.sidebar] : []),
        ])
      : null;
  const banner = announcement(shell);
  const foot = footer(shell);
  const aside = toc(parts.toc);
  const theme = c.themes.default === 'system' ? undefined : c.themes.default;
  const tree: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      h(
        'html',
        {
          lang: c.internationalization.locale,
          'data-theme': theme,
          'data-toggle': c.themes.toggeable ? '' : undefined,
          'data-corners': c.styling.corners,
        },
        [
          head(shell, parts),
          h('body', [
            h('a.skip', { href: '#content' }, [text('Skip to content')]),
            ...(banner ? [banner] : []),
            header(shell),
            h('div.layout', { style: sidebar ? undefined : 'grid-template-columns:minmax(0,1fr)' }, [
              ...(sidebar ? [sidebar] : []),
              h('main#content', { tabindex: -1 }, parts.main),
              ...(aside ? [aside] : []),
            ]),
            ...(foot ? [foot] : []),
          ]),
        ],
      ),
    ],
  };
  return toHtml(sanitizeUrls(tree));
}
