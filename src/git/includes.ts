/**
 * Reusable contents in the Git Sync layout, as GitBook keeps them: one Markdown file each under
 * `.gitbook/includes/` (named after its title; front matter `title`), included by pages with
 * `{% include "<relative path>" %}`. Export writes those files; import reads them back into
 * reusable contents, keeping the id of one whose file has the same path (as the last export or
 * import recorded it, else as an export would write it).
 */
import * as yaml from 'js-yaml';
import type { ContentRef, JsonDocument } from '../content/document.js';
import { documentToMarkdown } from '../content/markdown.js';
import type { ReusableEntry } from '../content/store.js';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';
import { slugify } from '../lib/slug.js';
import { storeMarkdownFile, titleOf } from './layout.js';

export const INCLUDES = '.gitbook/includes';

const MARKDOWN = /\.(md|markdown)$/i;

/** The file of each reusable content (by id): `.gitbook/includes/<title slug>.md`, unique. */
export function includePaths(reusables: ReusableEntry[]): Map<string, string> {
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  for (const entry of reusables) {
    const base = slugify(entry.title);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
    taken.add(name);
    paths.set(entry.id, `${INCLUDES}/${name}.md`);
  }
  return paths;
}

/** An include file: the title in front matter, then the body (references written by `refUrl`). */
export function includeMarkdown(title: string, document: JsonDocument, refUrl: (ref: ContentRef) => string): string {
  const meta = yaml.dump({ title }, { lineWidth: -1 });
  return `---\n${meta}---\n\n${documentToMarkdown(document, { refUrl })}`;
}

/** Include files of a repository's content (paths relative to the content root). */
export function includeFiles(paths: Iterable<string>): string[] {
  return [...paths].filter((p) => p.startsWith(`${INCLUDES}/`) && MARKDOWN.test(p)).sort();
}

/**
 * Ids of the include files (path → id): an existing reusable content's where its file is the same,
 * by the path `recorded` for it (the last export or import), else by the path an export would give it.
 */
export function includeIds(
  files: string[],
  existing: ReusableEntry[],
  recorded: Map<string, string> = new Map(),
): Map<string, string> {
  const live = new Set(existing.map((r) => r.id));
  const previous = new Map([...includePaths(existing)].map(([id, path]) => [path, id]));
  for (const [path, id] of recorded) if (live.has(id)) previous.set(path, id);
  const taken = new Set<string>();
  return new Map(
    files.map((path) => {
      const id = previous.get(path);
      // One reusable content per file, even when two paths name the same one.
      const kept = id && !taken.has(id) ? id : newId();
      taken.add(kept);
      return [path, kept];
    }),
  );
}

/**
 * The reusable contents of the include files: the title from front matter, else the leading
 * `# heading`, else the file name; the body with its references resolved by `resolveUrl(path)`.
 */
export async function readIncludes(
  db: Db,
  ids: Map<string, string>,
  text: (path: string) => string,
  resolveUrl: (from: string) => (url: string) => ContentRef | null,
): Promise<ReusableEntry[]> {
  const out: ReusableEntry[] = [];
  for (const [path, id] of ids) {
    const { title, document } = await storeMarkdownFile(db, text(path), resolveUrl(path));
    // Titles are 1–100 characters, as batch edits require.
    out.push({ id, title: (title || titleOf(path)).slice(0, 100), ...(document ? { document } : {}) });
  }
  return out;
}
