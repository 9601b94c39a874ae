/**
 * The navigation of a published site as hast: section tabs (section groups as menus, external links
 * as outbound links among them), the variant
 * switcher (the site spaces of a section), the page tree of the sidebar (group pages as headings,
 * link pages as links, the current page's branch open), breadcrumbs and previous / next links.
 */
import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { FlatPage, PageNode } from '../../content/store.js';
import type { SiteExternalLinkRow, SiteSectionRow, SiteSpaceRow } from '../../db/schema.js';
import { safeUrl, urlScheme } from '../../lib/safe-url.js';
import type { GroupChild } from '../../sites/structure.js';
import { pageLabel, type SiteReader, type SpaceContent } from '../reader.js';

const text = (value: string): ElementContent => ({ type: 'text', value });

/**
 * An external link of the structure as an outbound anchor; null when the visitor may not see it
 * (a draft, or its condition does not hold) or its URL is none an `href` may hold (the API accepts
 * only http(s) URLs; this check keeps a row written any other way from reaching the page).
 */
function outboundLink(reader: SiteReader, row: SiteExternalLinkRow, target: 'self' | 'blank'): Element | null {
  const href = reader.externalLinkVisible(row) ? safeUrl(row.url) : null;
  if (href === null || urlScheme(href) === null) return null;
  const props: Record<string, string> = { href, rel: 'noopener' };
  if (target === 'blank') props.target = '_blank';
  return h('a.external', props, [text(row.title)]);
}

/**
 * Section tabs with the external links among them (section groups as menus); null when the site
 * has neither two sections to choose from nor an external link to show. External links open as the
 * customization's `externalLinks.target` says, like the site's other outbound links.
 */
export function sectionTabs(
  reader: SiteReader,
  current: SiteSectionRow | null,
  externalTarget: 'self' | 'blank' = 'self',
): Element | null {
  const visible = new Set(reader.sections().map((s) => s.id));
  if (visible.size === 0) return null;
  const tab = (section: SiteSectionRow) =>
    h('a', { href: reader.sectionHref(section), 'aria-current': section.id === current?.id ? 'page' : undefined }, [
      text(section.title),
    ]);
  const child = (item: GroupChild): Element | null =>
    item.kind === 'section'
      ? visible.has(item.row.id)
        ? tab(item.row)
        : null
      : outboundLink(reader, item.row, externalTarget);
  const items: Element[] = [];
  let links = 0;
  for (const item of reader.model.structure.top) {
    if (item.kind !== 'group') {
      const element = child(item);
      if (element) items.push(element);
      if (element && item.kind === 'link') links++;
      continue;
    }
    const children = item.children.map((c) => ({ c, element: child(c) })).filter((x) => x.element !== null);
    if (children.length === 0) continue;
    links += children.filter((x) => x.c.kind === 'link').length;
    const holdsCurrent = children.some((x) => x.c.kind === 'section' && x.c.row.id === current?.id);
    items.push(
      h(`details.menu${holdsCurrent ? '.current' : ''}`, [
        h('summary', [text(item.row.title)]),
        h(
          'ul.menu-list',
          children.map((x) => h('li', [x.element as Element])),
        ),
      ]),
    );
  }
  if (visible.size < 2 && links === 0) return null;
  return h('nav.tabs', { 'aria-label': 'Sections' }, items);
}

/** The variant switcher; null when the section has a single site space. */
export function variantSwitcher(reader: SiteReader, content: SpaceContent): Element | null {
  const siteSpaces = reader.siteSpacesOf(content.section);
  if (siteSpaces.length < 2) return null;
  const title = (s: SiteSpaceRow) => reader.model.spaces.get(s.space_id)?.title ?? s.path;
  return h('details.variants.menu', [
    h('summary', [h('span.visually-hidden', [text('Version: ')]), text(title(content.siteSpace))]),
    h(
      'ul.menu-list',
      { 'aria-label': 'Versions' },
      siteSpaces.map((s) =>
        h('li', [
          h(
            'a',
            { href: reader.siteSpaceHref(s), 'aria-current': s.id === content.siteSpace.id ? 'true' : undefined },
            [text(title(s))],
          ),
        ]),
      ),
    ),
  ]);
}

/** Ids of `entry` and its ancestors. */
function branchOf(content: SpaceContent, entry: FlatPage | null): Set<string> {
  const ids = new Set<string>();
  for (
    let at: FlatPage | undefined = entry ?? undefined;
    at;
    at = at.parent ? content.byId.get(at.parent.id) : undefined
  ) {
    ids.add(at.page.id);
  }
  return ids;
}

/** The page tree of a site space, with `current` marked and its branch open. */
export function pageTree(reader: SiteReader, content: SpaceContent, current: FlatPage | null): Element {
  const open = branchOf(content, current);
  const list = (pages: PageNode[]): Element | null => {
    const items = pages
      .filter((p) => !p.hidden)
      .flatMap((page) => {
        const entry = content.byId.get(page.id);
        if (!entry) return [];
        if (page.type === 'group') {
          const children = list(page.children);
          return [h('li', [h('div.group-title', [text(pageLabel(page))]), ...(children ? [children] : [])])];
        }
        if (page.type === 'link') {
          const link = page.target ? reader.link(page.target, content) : null;
          if (!link) return [];
          return [
            h('li', [
              h(
                link.external ? 'a.external' : 'a',
                link.external ? { href: link.href, rel: 'noopener' } : { href: link.href },
                [text(pageLabel(page))],
              ),
            ]),
          ];
        }
        const children = open.has(page.id) ? list(page.children) : null;
        return [
          h('li', [
            h(
              'a',
              {
                href: reader.pageHref(content, entry),
                'aria-current': page.id === current?.page.id ? 'page' : undefined,
              },
              [text(pageLabel(page))],
            ),
            ...(children ? [children] : []),
          ]),
        ];
      });
    return items.length > 0 ? h('ul', items) : null;
  };
  return h('nav.pages', { 'aria-label': 'Pages' }, [list(content.snapshot.pages) ?? h('p', [text('No pages yet.')])]);
}

/** The trail above a page: its ancestors (groups as plain text). */
export function breadcrumbs(reader: SiteReader, content: SpaceContent, entry: FlatPage): Element | null {
  const trail: ElementContent[] = [];
  for (let at = entry.parent ? content.byId.get(entry.parent.id) : undefined; at; ) {
    const label = text(pageLabel(at.page));
    trail.unshift(
      h('li', [at.page.type === 'document' ? h('a', { href: reader.pageHref(content, at) }, [label]) : label]),
    );
    at = at.parent ? content.byId.get(at.parent.id) : undefined;
  }
  if (trail.length === 0) return null;
  return h('nav.breadcrumbs', { 'aria-label': 'Breadcrumb' }, [h('ol', trail)]);
}

/** Previous and next document pages (hidden pages are skipped); null when there are none. */
export function pagination(reader: SiteReader, content: SpaceContent, entry: FlatPage): Element | null {
  const readable = content.documents.filter((d) => !d.page.hidden || d === entry);
  const index = readable.indexOf(entry);
  const previous = index > 0 ? readable[index - 1] : undefined;
  const next = index >= 0 ? readable[index + 1] : undefined;
  if (!previous && !next) return null;
  const link = (target: FlatPage, label: string, className: string) =>
    h(`a.${className}`, { href: reader.pageHref(content, target), rel: className === 'next' ? 'next' : 'prev' }, [
      h('small', [text(label)]),
      text(pageLabel(target.page)),
    ]);
  return h('nav.pagination', { 'aria-label': 'Previous and next pages' }, [
    ...(previous ? [link(previous, 'Previous', 'previous')] : []),
    ...(next ? [link(next, 'Next', 'next')] : []),
  ]);
}
