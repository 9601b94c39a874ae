/**
 * A published site as a reader walks it: which section, site space and page a path names, the live
 * content of each site space, and the address of everything on the site. Addresses are paths under
 * the base path the site was reached at (`/sites/acme/docs`, `/docs` on a custom hostname or proxy),
 * so every link of a rendered page stays in the site's own URL scheme.
 */
import type { ContentRef } from '../content/document.js';
import { type FlatPage, flattenPages, loadRevision, type PageNode, type Snapshot } from '../content/store.js';
import type { Db } from '../db/database.js';
import type { SiteExternalLinkRow, SiteSectionRow, SiteSpaceRow, SpaceRow } from '../db/schema.js';
import { safeUrl, urlScheme } from '../lib/safe-url.js';
import { pageKey, prunePages } from './adaptive.js';
import { readableSiteSpaces, type SiteModel } from './model.js';

/** A page's title with its emoji, as shown in navigation and Markdown headings. */
export function pageLabel(page: Pick<PageNode, 'title' | 'emoji'>): string {
  return page.emoji ? `${page.emoji} ${page.title}` : page.title;
}

export interface SpaceContent {
  siteSpace: SiteSpaceRow;
  section: SiteSectionRow | null;
  space: SpaceRow;
  snapshot: Snapshot;
  /** Every page, depth first. */
  pages: FlatPage[];
  byPath: Map<string, FlatPage>;
  byId: Map<string, FlatPage>;
  /** Document pages in reading order (previous / next). */
  documents: FlatPage[];
  /** The page shown at the site space's own address: its first document page. */
  first: FlatPage | null;
}

/** Where a path of the site leads. */
export type Place =
  | { kind: 'page'; content: SpaceContent; entry: FlatPage; markdown: boolean }
  /** 308 for the site's redirects; 302 for link pages (their target may change). */
  | { kind: 'redirect'; location: string; status: 302 | 308 }
  | { kind: 'missing'; content: SpaceContent | null };

const enc = encodeURIComponent;

/**
 * Where a URL reference leads: an absolute URL a page may link to (external), or an anchor of the
 * page itself; null for anything else (a relative URL names no address of the site; a script URL
 * no place at all).
 */
export function urlLink(url: string): { href: string; external: boolean } | null {
  const href = safeUrl(url);
  if (href === null) return null;
  if (href.startsWith('#')) return { href, external: false };
  return urlScheme(href) === null ? null : { href, external: true };
}

type BuiltContent = Omit<SpaceContent, 'siteSpace' | 'section' | 'space'>;

/**
 * Built from one revision (and, for adaptive pages, what of it a visitor may not see), shared by
 * every request that reads it (revisions never change).
 */
const contents = new Map<string, BuiltContent>();

function build(snapshot: Snapshot): BuiltContent {
  const pages = flattenPages(snapshot.pages);
  const documents = pages.filter((p) => p.page.type === 'document');
  return {
    snapshot,
    pages,
    byPath: new Map(pages.map((p) => [p.path, p])),
    byId: new Map(pages.map((p) => [p.page.id, p])),
    documents,
    first: documents[0] ?? null,
  };
}

function remember(key: string, built: BuiltContent): BuiltContent {
  contents.set(key, built);
  if (contents.size > 256) contents.delete(contents.keys().next().value as string);
  return built;
}

export class SiteReader {
  constructor(
    readonly db: Db,
    readonly model: SiteModel,
    /** The path the site is served under, without a trailing slash (`/sites/acme/docs`). */
    readonly basePath: string,
  ) {}

  /** Sections a reader sees: those with at least one readable site space, in order. */
  sections(): SiteSectionRow[] {
    return this.model.structure.sections.filter((s) => readableSiteSpaces(this.model, s.id).length > 0);
  }

  /** Whether a reader sees the external link `row`: not a draft, nor hidden by its condition. */
  externalLinkVisible(row: SiteExternalLinkRow): boolean {
    return row.draft !== 1 && !this.model.hidden.has(row.id);
  }

  defaultSection(): SiteSectionRow | null {
    if (!this.model.structure.hasSections) return null;
    const sections = this.sections();
    return sections.find((s) => s.is_default === 1) ?? sections[0] ?? null;
  }

  siteSpacesOf(section: SiteSectionRow | null): SiteSpaceRow[] {
    return readableSiteSpaces(this.model, section?.id ?? null);
  }

  defaultSiteSpace(section: SiteSectionRow | null): SiteSpaceRow | null {
    const siteSpaces = this.siteSpacesOf(section);
    return siteSpaces.find((s) => s.is_default === 1) ?? siteSpaces[0] ?? null;
  }

  /**
   * The site as addresses are made from it: in the preview of one site space, the whole site (the
   * previewed one keeps its address, and the site's default pages, hidden, read as missing);
   * otherwise the site as this reader sees it.
   */
  private get addressing(): SiteReader {
    if (!this.model.previewOf) return this;
    if (!this.whole) {
      const { previewOf: _previewed, ...model } = this.model;
      this.whole = new SiteReader(this.db, { ...model, hidden: new Set() }, this.basePath);
    }
    return this.whole;
  }
  private whole: SiteReader | undefined;

  /** Whether a reader may open `siteSpace` (a default of a preview of another one may be hidden). */
  private readable(siteSpace: SiteSpaceRow): boolean {
    return readableSiteSpaces(this.model, siteSpace.section_id).includes(siteSpace);
  }

  sectionOf(siteSpace: SiteSpaceRow): SiteSectionRow | null {
    return siteSpace.section_id ? (this.model.structure.sectionById.get(siteSpace.section_id) ?? null) : null;
  }

  /**
   * The live content of a site space, as the visitor sees it: pages whose condition does not hold
   * for them are not part of it (nor their subpages), so every surface that walks it leaves them out.
   */
  async content(siteSpace: SiteSpaceRow): Promise<SpaceContent | null> {
    const space = this.model.spaces.get(siteSpace.space_id);
    if (!space) return null;
    let built = contents.get(space.revision_id);
    if (!built) {
      const snapshot = await loadRevision(this.db, space, space.revision_id);
      if (!snapshot) return null;
      built = remember(space.revision_id, build(snapshot));
    }
    const conditioned = this.model.pageConditions.get(space.id);
    const hidden = conditioned
      ? [...conditioned.keys()].filter((id) => this.model.hidden.has(pageKey(space.id, id))).sort()
      : [];
    if (hidden.length > 0) {
      const key = `${space.revision_id}|${hidden.join(',')}`;
      const full = built;
      built =
        contents.get(key) ??
        remember(key, build({ ...full.snapshot, pages: prunePages(full.snapshot.pages, new Set(hidden)) }));
    }
    return { ...built, siteSpace, section: this.sectionOf(siteSpace), space };
  }

  /** The contents of every readable site space, in site order. */
  async allContents(): Promise<SpaceContent[]> {
    const out: SpaceContent[] = [];
    for (const siteSpace of readableSiteSpaces(this.model)) {
      const content = await this.content(siteSpace);
      if (content) out.push(content);
    }
    return out;
  }

  /** What `segments` (the path under the base, split on `/`) names. */
  async resolve(segments: string[]): Promise<Place> {
    let rest = segments;
    let section = this.addressing.defaultSection();
    if (this.model.structure.hasSections && rest[0]) {
      const named = this.sections().find((s) => s.path === rest[0] && s !== section);
      if (named) {
        section = named;
        rest = rest.slice(1);
      }
    }
    let siteSpace = this.addressing.defaultSiteSpace(section);
    if (rest[0]) {
      const named = this.siteSpacesOf(section).find((s) => s.path === rest[0] && s !== siteSpace);
      if (named) {
        siteSpace = named;
        rest = rest.slice(1);
      }
    }
    const content = siteSpace && this.readable(siteSpace) ? await this.content(siteSpace) : null;
    let path = rest.join('/');
    const markdown = path.endsWith('.md');
    if (markdown) path = path.slice(0, -3);
    if (content) {
      const entry = path === '' ? content.first : content.byPath.get(path);
      if (entry) {
        const target = this.landing(content, entry);
        if (typeof target === 'string') return { kind: 'redirect', location: target, status: 302 };
        if (target) return { kind: 'page', content, entry: target, markdown };
      }
    }
    const redirect = this.redirect(`/${segments.join('/')}`);
    if (redirect) return { kind: 'redirect', location: redirect, status: 308 };
    return { kind: 'missing', content };
  }

  /** A document page is shown; a group shows its first page; a link page sends the reader to its target. */
  private landing(content: SpaceContent, entry: FlatPage): FlatPage | string | null {
    if (entry.page.type === 'document') return entry;
    if (entry.page.type === 'link')
      return entry.page.target ? (this.link(entry.page.target, content)?.href ?? null) : null;
    const first = content.documents.find((d) => d.parent?.id === entry.page.id);
    return first ? this.pageHref(content, first) : null;
  }

  /** The destination of the site's redirect from `source`, as an address on this site (or external). */
  redirect(source: string): string | null {
    const row = this.model.redirects.find((r) => r.source === source);
    if (!row) return null;
    // Browsers follow no script URL in a Location, but a redirect to one is still refused.
    if (row.destination_kind === 'external')
      return row.destination_url ? (urlLink(row.destination_url)?.href ?? null) : null;
    if (row.destination_kind === 'site-section') {
      const section = this.sections().find((s) => s.id === row.destination_id);
      return section ? this.sectionHref(section) : null;
    }
    const siteSpace = readableSiteSpaces(this.model).find((s) => s.id === row.destination_id);
    return siteSpace ? this.siteSpaceHref(siteSpace) : null;
  }

  // Addresses ------------------------------------------------------------------------------------

  /** `path` (starting with `/`, or empty) under the base. */
  href(path: string): string {
    return `${this.basePath}${path}` || '/';
  }

  private sectionPath(section: SiteSectionRow | null): string {
    return !section || section === this.addressing.defaultSection() ? '' : `/${enc(section.path)}`;
  }

  private siteSpacePath(siteSpace: SiteSpaceRow): string {
    const section = this.sectionOf(siteSpace);
    const own = siteSpace === this.addressing.defaultSiteSpace(section) ? '' : `/${enc(siteSpace.path)}`;
    return `${this.sectionPath(section)}${own}`;
  }

  sectionHref(section: SiteSectionRow): string {
    return this.href(this.sectionPath(section));
  }

  siteSpaceHref(siteSpace: SiteSpaceRow): string {
    return this.href(this.siteSpacePath(siteSpace));
  }

  /** The path of a page under the base (its site space's address for the site space's first page). */
  pagePath(content: SpaceContent, entry: FlatPage): string {
    const own = entry === content.first ? '' : `/${entry.path.split('/').map(enc).join('/')}`;
    return `${this.siteSpacePath(content.siteSpace)}${own}`;
  }

  pageHref(content: SpaceContent, entry: FlatPage): string {
    return this.href(this.pagePath(content, entry));
  }

  /** The page's Markdown (`…/page.md`; the site space's first page is `…/<its path>.md`). */
  markdownHref(content: SpaceContent, entry: FlatPage): string {
    const path = `${this.siteSpacePath(content.siteSpace)}/${entry.path.split('/').map(enc).join('/')}`;
    return this.href(`${path}.md`);
  }

  fileHref(spaceId: string, fileId: string, name: string): string {
    return this.href(`/~files/${enc(spaceId)}/${enc(fileId)}/${enc(name)}`);
  }

  /** The site space showing `spaceId`: the one in `near`'s section when there are several. */
  private siteSpaceFor(spaceId: string, near: SpaceContent): SiteSpaceRow | null {
    if (spaceId === near.space.id) return near.siteSpace;
    const candidates = readableSiteSpaces(this.model).filter((s) => s.space_id === spaceId);
    return candidates.find((s) => s.section_id === near.siteSpace.section_id) ?? candidates[0] ?? null;
  }

  /**
   * Where a reference of `from`'s content leads: pages, anchors and files of the site's spaces become
   * addresses on the site; URLs stay as they are (external). Content the site does not show (a page
   * that is gone, a space that is not on the site) leads nowhere: null. Other spaces' contents must
   * have been loaded with {@link preload} first.
   */
  link(ref: ContentRef, from: SpaceContent): { href: string; external: boolean } | null {
    if (ref.kind === 'url') return urlLink(ref.url);
    if (ref.kind === 'anchor' && !ref.page && !ref.space) return { href: `#${enc(ref.anchor)}`, external: false };
    if (ref.kind === 'file') {
      const file = this.file(ref, from);
      return file ? { href: file.url, external: false } : null;
    }
    // A reusable content is shown in place, never linked to.
    if (ref.kind === 'reusable-content') return null;
    const pageId = ref.page;
    const siteSpace = this.siteSpaceFor(ref.space ?? from.space.id, from);
    const content = siteSpace ? (siteSpace === from.siteSpace ? from : this.loaded.get(siteSpace.id)) : undefined;
    const entry = content && pageId ? content.byId.get(pageId) : undefined;
    if (!content || !entry) return null;
    const target =
      entry.page.type === 'document' ? entry : content.documents.find((d) => d.parent?.id === entry.page.id);
    if (!target) return null;
    const hash = ref.kind === 'anchor' ? `#${enc(ref.anchor)}` : '';
    return { href: `${this.pageHref(content, target)}${hash}`, external: false };
  }

  file(ref: ContentRef, from: SpaceContent): { url: string; name: string; contentType: string; size: number } | null {
    if (ref.kind !== 'file') return null;
    const siteSpace = this.siteSpaceFor(ref.space ?? from.space.id, from);
    const content = siteSpace ? (siteSpace === from.siteSpace ? from : this.loaded.get(siteSpace.id)) : undefined;
    const file = content?.snapshot.files.find((f) => f.id === ref.file);
    if (!content || !file) return null;
    return {
      url: this.fileHref(content.space.id, file.id, file.name),
      name: file.name,
      contentType: file.contentType,
      size: file.size,
    };
  }

  private readonly loaded = new Map<string, SpaceContent>();

  /** Loads the contents of the other spaces `refs` point to, so {@link link} can resolve them. */
  async preload(refs: ContentRef[], from: SpaceContent): Promise<void> {
    for (const ref of refs) {
      if (!('space' in ref) || !ref.space || ref.space === from.space.id) continue;
      const siteSpace = this.siteSpaceFor(ref.space, from);
      if (!siteSpace || this.loaded.has(siteSpace.id)) continue;
      const content = await this.content(siteSpace);
      if (content) this.loaded.set(siteSpace.id, content);
    }
  }
}
