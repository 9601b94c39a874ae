/**
 * A revision → the files of its Git Sync layout: `.gitbook.yaml`, `SUMMARY.md` (order, nesting,
 * groups as `## Title` sections, link pages as links), one Markdown file per document page (front
 * matter for description, emoji, icon, hidden and condition; the title as the leading `# heading`; references
 * to pages and files written as relative paths), the files under `.gitbook/assets/` and the
 * reusable contents under `.gitbook/includes/` (includes.ts).
 *
 * Paths are those `git.path` reports for pages and files (see api/content/present.ts), so a page's
 * `git` metadata names the file it was exported to.
 */
import { posix } from 'node:path';
import * as yaml from 'js-yaml';
import { type Block, type ContentRef, emptyDocument, type JsonDocument } from '../content/document.js';
import { documentToMarkdown } from '../content/markdown.js';
import { flattenPages, getDocuments, type PageNode, type Snapshot } from '../content/store.js';
import { refToUrl } from '../content/to-mdast.js';
import type { Db } from '../db/database.js';
import { readBlob } from '../storage/files.js';
import { ExportPaths, safeDirectory, safeSegment } from './export-paths.js';
import { includeMarkdown, includePaths } from './includes.js';
import {
  ASSETS,
  CONFIG_FILE,
  DEFAULT_README,
  DEFAULT_SUMMARY,
  encodePath,
  escapeLinkText,
  joinPath,
  writeConfig,
} from './layout.js';

export interface ExportedLayout {
  /** Repository path → bytes. */
  files: Map<string, Uint8Array>;
  /** Page id → its Markdown file's repository path. */
  pagePaths: Map<string, string>;
  /** File id → its repository path. */
  filePaths: Map<string, string>;
  /** Reusable content id → its include file's repository path. */
  includePaths: Map<string, string>;
}

function frontmatter(page: PageNode): string {
  const meta: Record<string, string | boolean> = {};
  if (page.description) meta.description = page.description;
  if (page.emoji) meta.emoji = page.emoji;
  if (page.icon) meta.icon = page.icon;
  if (page.hidden) meta.hidden = true;
  // Bindery's own field: an adaptive page's condition, so that an import brings the gate back.
  if (page.condition) meta.condition = page.condition;
  return Object.keys(meta).length > 0 ? `---\n${yaml.dump(meta, { lineWidth: -1 })}---\n\n` : '';
}

export interface GitPaths {
  pagePaths: Map<string, string>;
  filePaths: Map<string, string>;
  /** Reusable content id → its include file. */
  includePaths: Map<string, string>;
}

/**
 * Where Git Sync writes each document page, file and reusable content of a revision (paths
 * relative to the content root): a page at `<slug>.md`, or `<slug>/README.md` with its subpages in
 * that folder; a file under `.gitbook/assets/` (a second `image.png` becomes `image (1).png`). Every
 * name is made a safe segment and every path is given once (export-paths.ts): a hostile slug or
 * file name (`..`, `a/b`, `C:\x`, control characters) or two names equal but for case get
 * names of their own rather than reaching outside the layout or overwriting each other.
 */
export function gitPaths(snapshot: Pick<Snapshot, 'pages' | 'files' | 'reusableContents'>): GitPaths {
  const paths = new ExportPaths();
  paths.file('', CONFIG_FILE);
  paths.file('', DEFAULT_SUMMARY);
  paths.directory('', '.gitbook'); // assets and includes: no page folder of that name
  const pagePaths = new Map<string, string>();
  const visit = (pages: PageNode[], dir: string) => {
    for (const page of pages) {
      // A group only gathers pages in the table of contents: its slug is not part of their paths.
      if (page.type === 'group') {
        visit(page.children, dir);
        continue;
      }
      const name = safeSegment(page.slug, 'page');
      if (page.children.length === 0) {
        if (page.type === 'document') pagePaths.set(page.id, paths.file(dir, `${name}.md`));
        continue;
      }
      const folder = paths.directory(dir, name);
      if (page.type === 'document') pagePaths.set(page.id, paths.file(folder, DEFAULT_README));
      visit(page.children, folder);
    }
  };
  visit(snapshot.pages, '');
  const filePaths = new Map(
    snapshot.files.map((file) => [
      file.id,
      paths.file(ASSETS, safeSegment(file.name, 'file'), (stem, n) => `${stem} (${n})`),
    ]),
  );
  return { pagePaths, filePaths, includePaths: includePaths(snapshot.reusableContents) };
}

/**
 * How references are written in the file at `from`: pages and files of this space as paths relative
 * to it, anything else (another space, a URL, a missing target) in its stable form.
 */
export function relativeRefUrl(spaceId: string, paths: GitPaths, from: string): (ref: ContentRef) => string {
  const relative = (target: string) => {
    const path = posix.relative(posix.dirname(from), target) || posix.basename(target);
    return encodePath(path);
  };
  return (ref) => {
    if ('space' in ref && ref.space && ref.space !== spaceId) return refToUrl(ref);
    if (ref.kind === 'page' || (ref.kind === 'anchor' && ref.page)) {
      const target = paths.pagePaths.get(ref.page as string);
      if (!target) return refToUrl(ref);
      return ref.kind === 'anchor' ? `${relative(target)}#${ref.anchor}` : relative(target);
    }
    if (ref.kind === 'file') {
      const target = paths.filePaths.get(ref.file);
      return target ? relative(target) : refToUrl(ref);
    }
    if (ref.kind === 'reusable-content') {
      const target = paths.includePaths.get(ref.reusableContent);
      return target ? relative(target) : refToUrl(ref);
    }
    return refToUrl(ref);
  };
}

export async function exportLayout(
  db: Db,
  snapshot: Snapshot,
  options: { projectDirectory?: string } = {},
): Promise<ExportedLayout> {
  const dir = safeDirectory(options.projectDirectory ?? '');
  const flat = flattenPages(snapshot.pages);
  const paths = gitPaths(snapshot);
  const { pagePaths, filePaths } = paths;
  const refUrl = (from: string) => relativeRefUrl(snapshot.spaceId, paths, from);

  const files = new Map<string, Uint8Array>();
  const documents = await getDocuments(db, [
    ...flat.flatMap((e) => (e.page.document ? [e.page.document] : [])),
    ...snapshot.reusableContents.flatMap((r) => (r.document ? [r.document] : [])),
  ]);
  for (const entry of flat) {
    const path = pagePaths.get(entry.page.id);
    if (!path) continue;
    const body = (entry.page.document && documents.get(entry.page.document)?.nodes) || [];
    const heading: Block = {
      object: 'block',
      type: 'heading-1',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: entry.page.title, marks: [] }] }],
    };
    const document: JsonDocument = { object: 'document', data: {}, nodes: [heading, ...body] };
    const markdown = frontmatter(entry.page) + documentToMarkdown(document, { refUrl: refUrl(path) });
    files.set(joinPath(dir, path), Buffer.from(markdown, 'utf8'));
  }
  for (const entry of snapshot.reusableContents) {
    const path = paths.includePaths.get(entry.id) as string;
    const document = (entry.document && documents.get(entry.document)) || emptyDocument();
    files.set(joinPath(dir, path), Buffer.from(includeMarkdown(entry.title, document, refUrl(path)), 'utf8'));
  }
  for (const file of snapshot.files) {
    const bytes = await readBlob(db, file.blob);
    if (bytes) files.set(joinPath(dir, filePaths.get(file.id) as string), bytes);
  }
  files.set(joinPath(dir, DEFAULT_SUMMARY), Buffer.from(summary(snapshot.pages, pagePaths, refUrl(DEFAULT_SUMMARY))));
  const first = flat.find((e) => e.page.type === 'document');
  const readme = first ? (pagePaths.get(first.page.id) as string) : DEFAULT_README;
  files.set(joinPath(dir, CONFIG_FILE), Buffer.from(writeConfig(readme)));
  return {
    files,
    pagePaths: new Map([...pagePaths].map(([id, path]) => [id, joinPath(dir, path)])),
    filePaths: new Map([...filePaths].map(([id, path]) => [id, joinPath(dir, path)])),
    includePaths: new Map([...paths.includePaths].map(([id, path]) => [id, joinPath(dir, path)])),
  };
}

/** SUMMARY.md: the table of contents, groups as `## Title` sections, link pages as links. */
function summary(pages: PageNode[], pagePaths: Map<string, string>, refUrl: (ref: ContentRef) => string): string {
  const lines = ['# Table of contents', ''];
  const list = (items: PageNode[], depth: number) => {
    for (const page of items) {
      const indent = '  '.repeat(depth);
      const title = escapeLinkText(page.title);
      if (page.type === 'document') {
        lines.push(`${indent}* [${title}](${encodePath(pagePaths.get(page.id) as string)})`);
      } else if (page.type === 'link' && page.target) {
        lines.push(`${indent}* [${title}](${refUrl(page.target)})`);
      }
      list(page.children, depth + 1);
    }
  };
  let run: PageNode[] = [];
  const flush = () => {
    list(run, 0);
    run = [];
  };
  for (const page of pages) {
    if (page.type !== 'group') {
      run.push(page);
      continue;
    }
    flush();
    lines.push('', `## ${page.title.replace(/\n/g, ' ')}`, '');
    list(page.children, 0);
  }
  flush();
  return `${lines.join('\n')}\n`;
}
