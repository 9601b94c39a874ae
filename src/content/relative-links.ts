/**
 * Relative Markdown links, as Git Sync repositories write them (`second-page.md`,
 * `getting-started/install.md`, `../README.md`, `./other.md#anchor`, `folder/`), resolved against a
 * page tree: a page lives where Git Sync would write it (`<path>.md`, or `<path>/README.md` when it
 * has subpages; the folder `<path>/` is that page too), files under `.gitbook/assets/<name>`.
 *
 * Links are resolved once, when a body is written (batch edits, imports): the stored document then
 * holds page and file references, which follow their targets through renames and moves. A relative
 * link that resolves to nothing stays a URL and counts as broken (no relative URL can be followed
 * from stored content).
 */
import { posix } from 'node:path';
import type { ContentRef, JsonDocument } from './document.js';
import { type FileEntry, type FlatPage, flattenPages, type PageNode } from './store.js';

/** Where Git Sync would write a document page's Markdown. */
export function pageGitPath(entry: Pick<FlatPage, 'page' | 'path'>): string {
  return entry.page.children.length > 0 ? `${entry.path}/README.md` : `${entry.path}.md`;
}

/** The folder of `.gitbook/assets`, where Git Sync keeps a space's files. */
export const ASSETS_DIR = '.gitbook/assets';

/** A URL with no scheme that is not rooted (`/…`, `//…`) nor a bare anchor: a path relative to the page. */
export function isRelativeUrl(url: string): boolean {
  const trimmed = url.trim();
  if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('/') || trimmed.startsWith('\\')) return false;
  return !/^[a-z][a-z0-9+.-]*:/i.test(trimmed);
}

/** Targets by normalized path (lower-case keys are a fallback: links often differ from slugs in case only). */
export class PathIndex {
  private readonly exact = new Map<string, ContentRef>();
  private readonly folded = new Map<string, ContentRef>();

  /** `fill`: sets the index's paths on its first lookup (then never again). */
  constructor(private fill?: (index: PathIndex) => void) {}

  set(path: string, ref: ContentRef): void {
    if (!this.exact.has(path)) this.exact.set(path, ref);
    const lower = path.toLowerCase();
    if (!this.folded.has(lower)) this.folded.set(lower, ref);
  }

  get(path: string): ContentRef | undefined {
    const fill = this.fill;
    if (fill) {
      this.fill = undefined;
      fill(this);
    }
    return this.exact.get(path) ?? this.folded.get(path.toLowerCase());
  }
}

/**
 * Every path at which a page or file of the tree can be linked to. Built on the first lookup, from
 * the tree as it is then: most bodies written have no relative link, and building it walks every
 * page of the space (a twentieth of an autosave's CPU in a space of 200 pages). Callers look up
 * before changing the pages' slugs, types or places.
 */
export function gitPathIndex(pages: PageNode[], files: FileEntry[]): PathIndex {
  return new PathIndex((index) => fillGitPaths(index, pages, files));
}

function fillGitPaths(index: PathIndex, pages: PageNode[], files: FileEntry[]): void {
  const flat = flattenPages(pages).filter((entry) => entry.page.type === 'document');
  for (const entry of flat) {
    const ref: ContentRef = { kind: 'page', page: entry.page.id };
    index.set(pageGitPath(entry), ref);
    index.set(`${entry.path}.md`, ref);
    index.set(`${entry.path}/README.md`, ref);
    index.set(entry.path, ref);
  }
  // The repository's root README is the space's first page (GitBook's home page).
  const home = flat[0];
  if (home) {
    index.set('README.md', { kind: 'page', page: home.page.id });
    index.set('', { kind: 'page', page: home.page.id });
  }
  for (const file of files) index.set(`${ASSETS_DIR}/${file.name}`, { kind: 'file', file: file.id });
}

/**
 * The page or file a relative URL written in the file at `from` points to, or null. `from` is a path
 * in the repository layout (`guide/install.md`); a URL may carry `#anchor` (kept for pages) and `?query` (ignored).
 */
export function resolveRelativeUrl(url: string, from: string, index: PathIndex): ContentRef | null {
  if (!isRelativeUrl(url)) return null;
  const hashAt = url.indexOf('#');
  const anchor = hashAt >= 0 ? url.slice(hashAt + 1) : '';
  const raw = (hashAt >= 0 ? url.slice(0, hashAt) : url).replace(/\?.*$/, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.trim());
  } catch {
    return null;
  }
  const joined = posix.normalize(posix.join(posix.dirname(from), decoded)).replace(/\/+$/, '');
  // Outside the repository: nothing of this space.
  if (joined === '..' || joined.startsWith('../')) return null;
  const target = joined === '.' ? '' : joined;
  const ref = index.get(target);
  if (!ref) return null;
  if (ref.kind === 'page' && anchor) return { kind: 'anchor', anchor, page: ref.page };
  return ref;
}

/**
 * A copy of `document` with its relative links resolved from `from` (the same document when none
 * resolves). Images resolve to files only.
 */
export function resolveRelativeLinks(document: JsonDocument, from: string, index: PathIndex): JsonDocument {
  let changed = false;
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!value || typeof value !== 'object') return value;
    const node = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = key === 'data' ? child : visit(child);
    const data = node.data as Record<string, unknown> | undefined;
    const ref = data?.ref as ContentRef | undefined;
    if (ref?.kind === 'url') {
      const resolved = resolveRelativeUrl(ref.url, from, index);
      const image = node.type === 'image' || node.type === 'inline-image';
      if (resolved && (!image || resolved.kind === 'file')) {
        out.data = { ...data, ref: resolved };
        changed = true;
      }
    }
    return out;
  };
  const nodes = visit(document.nodes) as JsonDocument['nodes'];
  return changed ? { ...document, nodes } : document;
}
