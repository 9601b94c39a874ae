/**
 * GitBook's Git Sync layout, shared by the export and the import: `.gitbook.yaml` (root and
 * structure), `SUMMARY.md` (page order and nesting), one Markdown file per page (`<path>.md`, or
 * `<path>/README.md` when the page has subpages), files under `.gitbook/assets/`, reusable
 * contents under `.gitbook/includes/`; and how a Markdown file of it is read (front matter, title, body).
 */
import { posix } from 'node:path';
import * as yaml from 'js-yaml';
import type { ContentRef, JsonDocument } from '../content/document.js';
import { markdownToDocument, takeLeadingTitle } from '../content/markdown.js';
import { putDocument } from '../content/store.js';
import type { Db } from '../db/database.js';

export const CONFIG_FILE = '.gitbook.yaml';
export const DEFAULT_SUMMARY = 'SUMMARY.md';
export const DEFAULT_README = 'README.md';
export const ASSETS = '.gitbook/assets';

export interface GitbookConfig {
  /** The content's folder, relative to the project directory ('' for the directory itself). */
  root: string;
  readme: string;
  summary: string;
}

/** A folder path without leading `./`, `/` or trailing `/` ('' for the top). */
export function cleanDir(dir: string | undefined | null): string {
  if (!dir) return '';
  const normal = posix.normalize(dir.replace(/\\/g, '/')).replace(/^(\.\/)+|^\/+|\/+$/g, '');
  return normal === '.' ? '' : normal;
}

export function joinPath(dir: string, path: string): string {
  return dir ? `${dir}/${path}` : path;
}

/** Reads `.gitbook.yaml`; a missing or unreadable file means the defaults. */
export function parseConfig(text: string | undefined): GitbookConfig {
  const config: GitbookConfig = { root: '', readme: DEFAULT_README, summary: DEFAULT_SUMMARY };
  if (!text) return config;
  let parsed: unknown;
  try {
    parsed = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
  } catch {
    return config;
  }
  if (!parsed || typeof parsed !== 'object') return config;
  const record = parsed as { root?: unknown; structure?: { readme?: unknown; summary?: unknown } };
  if (typeof record.root === 'string') config.root = cleanDir(record.root);
  const structure = record.structure && typeof record.structure === 'object' ? record.structure : {};
  if (typeof structure.readme === 'string' && structure.readme.trim()) config.readme = cleanDir(structure.readme);
  if (typeof structure.summary === 'string' && structure.summary.trim()) config.summary = cleanDir(structure.summary);
  return config;
}

export function writeConfig(readme: string): string {
  return yaml.dump({ root: './', structure: { readme, summary: DEFAULT_SUMMARY } }, { lineWidth: -1 });
}

/** A relative path as a link URL: each segment percent-encoded where Markdown needs it. */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%40/g, '@'))
    .join('/');
}

/** `text` safe inside `[…]` of a Markdown link. */
export function escapeLinkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\n/g, ' ');
}

/** The repository path (under the content root) of a document page's Markdown file. */
export function pageFilePath(entry: { path: string; page: { children: unknown[] } }): string {
  return entry.page.children.length > 0 ? `${entry.path}/README.md` : `${entry.path}.md`;
}

/**
 * Where a reader edits a file of a synchronized repository on its host's web interface (GitHub's
 * `/edit/<ref>/<path>`, GitLab's `/-/edit/<ref>/<path>`); null for hosts without a known one.
 */
export function editUrl(
  sync: { provider: string; repo_url: string; tree_url: string | null; ref: string; project_directory: string | null },
  path: string,
): string | null {
  let base: URL;
  try {
    // The repository's web address when the connection gave one (`gitInfo.url`), else its Git URL.
    base = new URL(sync.tree_url ?? sync.repo_url);
  } catch {
    return null;
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return null;
  const repo = `${base.origin}${base.pathname.replace(/\.git$/, '').replace(/\/$/, '')}`;
  const ref = sync.ref.replace(/^refs\/heads\//, '');
  const file = encodePath(joinPath(cleanDir(sync.project_directory), path));
  if (sync.provider === 'github') return `${repo}/edit/${encodePath(ref)}/${file}`;
  if (sync.provider === 'gitlab') return `${repo}/-/edit/${encodePath(ref)}/${file}`;
  return null;
}

/** The front matter fields Git Sync writes on pages (and `title` on include files). */
export interface Frontmatter {
  title?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  /** An adaptive page's condition (Bindery's own field; Git Sync elsewhere has none). */
  condition?: string;
}

/** A leading `---` YAML block of a Markdown file, and the rest (no front matter when it does not parse). */
export function parseFrontmatter(markdown: string): { meta: Frontmatter; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return { meta: {}, body: markdown };
  let parsed: unknown;
  try {
    parsed = yaml.load(match[1] ?? '', { schema: yaml.JSON_SCHEMA });
  } catch {
    return { meta: {}, body: markdown };
  }
  const record = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  const meta: Frontmatter = {};
  for (const key of ['title', 'description', 'emoji', 'icon', 'condition'] as const) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) meta[key] = value.trim();
  }
  if (record.hidden === true) meta.hidden = true;
  return { meta, body: markdown.slice(match[0].length) };
}

/** Title from a file name: `getting-started.md` → `Getting started`. */
export function titleOf(path: string): string {
  const base = posix
    .basename(path)
    .replace(/\.(md|markdown)$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return base ? base.charAt(0).toUpperCase() + base.slice(1) : 'Untitled';
}

/**
 * A Markdown file of the layout (a page or an include): its front matter, its title (front matter,
 * else the leading `# heading`, taken out of the body) and its body stored (absent when empty),
 * with references resolved by `resolveUrl`.
 */
export async function storeMarkdownFile(
  db: Db,
  markdown: string,
  resolveUrl: (url: string) => ContentRef | null,
): Promise<{ meta: Frontmatter; title?: string; document?: string }> {
  const { meta, body } = parseFrontmatter(markdown);
  let document: JsonDocument = markdownToDocument(body, { resolveUrl });
  let title = meta.title;
  if (!title) {
    const leading = takeLeadingTitle(document);
    if (leading) {
      title = leading.title;
      document = leading.document;
    }
  }
  const hash = document.nodes.length > 0 ? await putDocument(db, document) : undefined;
  return { meta, ...(title ? { title } : {}), ...(hash ? { document: hash } : {}) };
}
