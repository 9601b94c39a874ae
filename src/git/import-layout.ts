/**
 * The files of a Git Sync repository → a page tree and files. `.gitbook.yaml` (in the project
 * directory) gives the content root and the README and SUMMARY files; `SUMMARY.md` gives the pages,
 * their order, nesting and groups (without one, folders do, as GitBook does: README.md first, then
 * files and folders by name). Each page's front matter and leading `# heading` give its fields and
 * title; relative links become page and file references (relative-links.ts); images and other
 * linked files, and everything under `.gitbook/assets/`, become files; the Markdown files under
 * `.gitbook/includes/` become reusable contents, which `{% include "…" %}` in pages refers to.
 *
 * Ids are kept where they can be: a page at the same path as in `existing` (the revision being
 * replaced) keeps its id, and so does a file with the same name and bytes, and a reusable content
 * whose include file has the same path.
 */
import { posix } from 'node:path';
import type { ContentRef } from '../content/document.js';
import { storeFile } from '../content/file-entry.js';
import { PathIndex, pageGitPath, resolveRelativeUrl } from '../content/relative-links.js';
import { type FileEntry, flattenPages, type PageNode, type ReusableEntry, type Snapshot } from '../content/store.js';
import { slugsOf } from '../content/tree.js';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';
import { slugify, uniqueSlug } from '../lib/slug.js';
import { assertExpression } from '../sites/condition.js';
import { gitBlobOid, MAX_FILE_BYTES } from '../storage/files.js';
import { includeFiles, includeIds, readIncludes } from './includes.js';
import { ASSETS, CONFIG_FILE, cleanDir, joinPath, parseConfig, storeMarkdownFile, titleOf } from './layout.js';
import { parseSummary, type SummaryEntry } from './summary.js';

export interface ImportedLayout {
  pages: PageNode[];
  files: FileEntry[];
  reusableContents: ReusableEntry[];
  /** Page id → the repository path of its Markdown file. */
  pagePaths: Map<string, string>;
  filePaths: Map<string, string>;
  includePaths: Map<string, string>;
}

const MARKDOWN = /\.(md|markdown)$/i;

/** The slug a file gives its page: its name, or its folder's for a README. */
function slugOf(path: string): string {
  const base = posix.basename(path).replace(MARKDOWN, '');
  const name = /^readme$/i.test(base) ? posix.basename(posix.dirname(path)) : base;
  return name === '.' || name === '' ? '' : slugify(name);
}

/** Without a SUMMARY.md: README first, then files and folders by name; a folder's README is its page. */
function fromFolders(markdownFiles: string[], readme: string): SummaryEntry[] {
  const build = (dir: string): SummaryEntry[] => {
    const prefix = dir ? `${dir}/` : '';
    const here = markdownFiles.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'));
    const folders = [
      ...new Set(
        markdownFiles
          .filter((p) => p.startsWith(prefix) && p.slice(prefix.length).includes('/'))
          .map((p) => prefix + (p.slice(prefix.length).split('/')[0] as string)),
      ),
    ].filter((f) => posix.basename(f) !== '.gitbook');
    const entries: Array<{ name: string; entry: SummaryEntry }> = [];
    for (const file of here) {
      if (/^readme\.(md|markdown)$/i.test(posix.basename(file))) continue;
      entries.push({ name: posix.basename(file), entry: { kind: 'page', title: '', url: file, children: [] } });
    }
    for (const folder of folders) {
      const index = markdownFiles.find(
        (p) => posix.dirname(p) === folder && /^readme\.(md|markdown)$/i.test(posix.basename(p)),
      );
      const children = build(folder);
      if (index)
        entries.push({ name: posix.basename(folder), entry: { kind: 'page', title: '', url: index, children } });
      else entries.push(...children.map((entry) => ({ name: posix.basename(folder), entry })));
    }
    return entries.sort((a, b) => a.name.localeCompare(b.name)).map((e) => e.entry);
  };
  const top = build('');
  return markdownFiles.includes(readme) ? [{ kind: 'page', title: '', url: readme, children: [] }, ...top] : top;
}

export async function importLayout(
  db: Db,
  repo: Map<string, Uint8Array>,
  options: {
    projectDirectory?: string;
    existing?: Snapshot;
    /** Repository path → id of the reusable contents the last export or import recorded. */
    existingIncludes?: Map<string, string>;
  } = {},
): Promise<ImportedLayout> {
  const project = cleanDir(options.projectDirectory);
  const decode = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);
  const config = parseConfig(decode(repo.get(joinPath(project, CONFIG_FILE))));
  const root = cleanDir(joinPath(project, config.root));
  // Paths below are relative to the content root.
  const content = new Map<string, Uint8Array>();
  for (const [path, bytes] of repo) {
    if (!root) content.set(path, bytes);
    else if (path.startsWith(`${root}/`)) content.set(path.slice(root.length + 1), bytes);
  }
  const markdownFiles = [...content.keys()].filter((p) => MARKDOWN.test(p) && p !== config.summary).sort();
  const summaryText = decode(content.get(config.summary));
  let entries = summaryText ? parseSummary(summaryText) : fromFolders(markdownFiles, config.readme);
  // The README is the first page, listed in the summary or not.
  const listed = (list: SummaryEntry[]): boolean =>
    list.some((e) => (e.kind === 'page' && cleanDir(decodeUrl(e.url)) === config.readme) || listed(e.children));
  if (summaryText && content.has(config.readme) && !listed(entries)) {
    entries = [{ kind: 'page', title: '', url: config.readme, children: [] }, ...entries];
  }

  // Ids first, so links can be resolved while converting.
  const existingIds = new Map<string, string>();
  if (options.existing) {
    for (const entry of flattenPages(options.existing.pages)) {
      if (entry.page.type === 'document') existingIds.set(pageGitPath(entry), entry.page.id);
    }
  }
  const index = new PathIndex();
  const pageOfPath = new Map<string, string>();
  const idFor = (path: string): string => {
    let id = pageOfPath.get(path);
    if (!id) {
      id = existingIds.get(path) ?? newId();
      pageOfPath.set(path, id);
      const ref: ContentRef = { kind: 'page', page: id };
      index.set(path, ref);
      if (/^readme\.(md|markdown)$/i.test(posix.basename(path))) index.set(cleanDir(posix.dirname(path)), ref);
      if (path === config.readme) index.set('', ref);
    }
    return id;
  };
  const visit = (list: SummaryEntry[]) => {
    for (const entry of list) {
      if (entry.kind === 'page' && isLocal(entry.url)) idFor(cleanDir(decodeUrl(entry.url)));
      visit(entry.children);
    }
  };
  visit(entries);
  // A file the replaced revision already had (same name and bytes) keeps its id.
  const previousFiles = new Map((options.existing?.files ?? []).map((f) => [`${f.name}\0${f.oid}`, f.id]));
  const fileIds = new Map<string, string>();
  for (const [path, bytes] of content) {
    if (MARKDOWN.test(path) || path === CONFIG_FILE) continue;
    const key = `${posix.basename(path)}\0${gitBlobOid(bytes)}`;
    const id = previousFiles.get(key) ?? newId();
    previousFiles.delete(key);
    fileIds.set(path, id);
    index.set(path, { kind: 'file', file: id });
  }

  const recorded = new Map(
    [...(options.existingIncludes ?? [])].flatMap(([path, id]) =>
      !root ? [[path, id] as const] : path.startsWith(`${root}/`) ? [[path.slice(root.length + 1), id] as const] : [],
    ),
  );
  const includes = includeIds(includeFiles(content.keys()), options.existing?.reusableContents ?? [], recorded);
  for (const [path, id] of includes) index.set(path, { kind: 'reusable-content', reusableContent: id });

  const used = new Set<string>();
  const resolver = (from: string) => (url: string) => {
    const ref = resolveRelativeUrl(url, from, index);
    if (ref?.kind === 'file') used.add(ref.file);
    return ref;
  };

  const built = new Set<string>();
  const pagePaths = new Map<string, string>();
  const build = async (list: SummaryEntry[], siblings: PageNode[]): Promise<PageNode[]> => {
    for (const entry of list) {
      let node: PageNode;
      if (entry.kind === 'group') {
        node = {
          id: newId(),
          type: 'group',
          title: entry.title,
          slug: uniqueSlug(slugify(entry.title), slugsOf(siblings)),
          children: [],
        };
      } else if (!isLocal(entry.url) || built.has(cleanDir(decodeUrl(entry.url)))) {
        // An absolute URL, or a file already placed: a link page.
        const target = resolveRelativeUrl(entry.url, config.summary, index) ?? { kind: 'url' as const, url: entry.url };
        node = {
          id: newId(),
          type: 'link',
          title: entry.title || entry.url,
          slug: uniqueSlug('link', slugsOf(siblings)),
          target,
          children: [],
        };
      } else {
        const path = cleanDir(decodeUrl(entry.url));
        built.add(path);
        node = await pageFrom(db, path, content.get(path), entry.title, idFor(path), resolver(path));
        node.slug = uniqueSlug(slugOf(path) || slugify(node.title), slugsOf(siblings));
        pagePaths.set(node.id, joinPath(root, path));
      }
      siblings.push(node);
      await build(entry.children, node.type === 'link' ? siblings : node.children);
    }
    return siblings;
  };
  const pages = await build(entries, []);
  // Before the files: an image only an include shows is kept too.
  const text = (path: string) => decode(content.get(path)) ?? '';
  const reusableContents = await readIncludes(db, includes, text, resolver);

  const files: FileEntry[] = [];
  const filePaths = new Map<string, string>();
  for (const [path, id] of fileIds) {
    const inAssets = path.startsWith(`${ASSETS}/`);
    if (!inAssets && !used.has(id)) continue;
    const bytes = content.get(path) as Uint8Array;
    if (bytes.byteLength > MAX_FILE_BYTES) continue;
    files.push(await storeFile(db, { id, name: posix.basename(path), bytes }));
    filePaths.set(id, joinPath(root, path));
  }
  const includePaths = new Map([...includes].map(([path, id]) => [id, joinPath(root, path)]));
  return { pages, files, reusableContents, pagePaths, filePaths, includePaths };
}

function isLocal(url: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//') && !url.startsWith('#');
}

function decodeUrl(url: string): string {
  const path = url.split('#')[0]?.replace(/\?.*$/, '') ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

async function pageFrom(
  db: Db,
  path: string,
  bytes: Uint8Array | undefined,
  summaryTitle: string,
  id: string,
  resolveUrl: (url: string) => ContentRef | null,
): Promise<PageNode> {
  const {
    meta,
    title,
    document: hash,
  } = await storeMarkdownFile(db, bytes ? Buffer.from(bytes).toString('utf8') : '', resolveUrl);
  // A malformed condition fails the import (naming the file) rather than leaving the page ungated.
  if (meta.condition) assertExpression(meta.condition, `${path}: condition`);
  const page: PageNode = {
    id,
    type: 'document',
    title: title || summaryTitle || titleOf(path),
    slug: '',
    children: [],
    ...(hash ? { document: hash } : {}),
    ...(meta.description ? { description: meta.description } : {}),
    ...(meta.emoji ? { emoji: meta.emoji } : {}),
    ...(meta.icon ? { icon: meta.icon } : {}),
    ...(meta.hidden ? { hidden: true } : {}),
    ...(meta.condition ? { condition: meta.condition } : {}),
  };
  return page;
}
