/**
 * The navigation of a published site as hast: section tabs (section groups as menus), the variant
 * switcher (the site spaces of a section), the page tree of the sidebar (group pages as headings,
 * link pages as links, the current page's branch open), breadcrumbs and previous / next links.
 */
import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { FlatPage, PageNode } from '../../content/store.js';
import type { SiteSectionRow, SiteSpaceRow } from '../../db/schema.js';
import { pageLabel, type SiteReader, type SpaceContent } from '../reader.js';

const text = (value: string): ElementContent => ({ type: 'text', value });

/** Section tabs; null when the site has fewer than two sections to choose from. */
export function sectionTabs(reader: SiteReader, current: SiteSectionRow | null): Element | null {
  const visible = new Set(reader.sections().map((s) => s.id));
  if (visible.size < 2) return null;
  const tab = (section: SiteSectionRow) =>
    h('a', { href: reader.sectionHref(section), 'aria-current': section.id === current?.id ? 'page' : undefined }, [
      text(section.title),
    ]);
  const items: Element[] = [];
  for (const item of reader.model.structure.top) {
    if (item.kind === 'section') {
      if (visible.has(item.row.id)) items.push(tab(item.row));
      continue;
    }
    const sections = item.sections.filter((s) => visible.has(s.id));
    if (sections.length === 0) continue;
    const holdsCurrent = sections.some((s) => s.id === current?.id);
    items.push(
      h(`details.menu${holdsCurrent ? '.current' : ''}`, [
        h('summary', [text(item.row.title)]),
        h(
          'ul.menu-list',
          sections.map((s) => h('li', [tab(s)])),
        ),
      ]),
    );
  }
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
