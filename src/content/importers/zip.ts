/**
 * .zip → pages: each Markdown or HTML file becomes a page, each folder a page holding its files
 * (its `README.md` or `index.md` is the folder page's body), images and other files become files
 * of the revision, and relative links between them become page and file references.
 *
 * Limits: at most {@link MAX_ENTRIES} entries and {@link MAX_UNZIPPED_BYTES} bytes inflated (counted
 * while inflating, off the event loop: declared sizes are not trusted; beyond them the import is a
 * 400 or 413); files over the file limit are skipped.
 */
import { posix } from 'node:path';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';
import type { ContentRef } from '../document.js';
import { storeFile } from '../file-entry.js';
import { htmlToDocument } from '../html.js';
import { markdownToDocument, splitFrontmatter, takeLeadingTitle } from '../markdown.js';
import { PathIndex, resolveRelativeUrl } from '../relative-links.js';
import type { FileEntry } from '../store.js';
import { type ImportBundle, type ImportedPage, titleFromName } from './types.js';
import { unpackZip } from './unpack.js';

export const MAX_ENTRIES = 1000;
export const MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;

const PAGE_FILE = /\.(md|markdown|html?)$/i;
const INDEX_FILE = /^(readme|index)\.(md|markdown|html?)$/i;

interface Folder {
  path: string;
  page: ImportedPage;
  /** The folder's README/index file, if any. */
  index?: string;
}

export async function importZip(db: Db, bytes: Buffer): Promise<ImportBundle> {
  const entries = await unpackZip(bytes, {
    maxEntries: MAX_ENTRIES,
    maxBytes: MAX_UNZIPPED_BYTES,
    label: 'the archive',
    skip: (name) => name.split('/').some((s) => s.startsWith('.') || s === '__MACOSX'),
  });

  // One top-level folder holding everything (a zipped folder) is not a page of its own.
  const names = [...entries.keys()];
  let paths = names.map((p) => posix.normalize(p).replace(/^\/+/, ''));
  const tops = new Set(paths.map((p) => p.split('/')[0]));
  const strip = tops.size === 1 && paths.every((p) => p.includes('/')) ? `${[...tops][0]}/` : '';
  paths = paths.map((p) => p.slice(strip.length));
  const data = new Map(paths.map((p, i) => [p, entries.get(names[i] as string) as Uint8Array]));

  // Ids first: every page file, folder and other file, so links can be resolved while converting.
  const folders = new Map<string, Folder>();
  const folderOf = (dir: string): Folder | null => {
    if (dir === '.' || dir === '') return null;
    let folder = folders.get(dir);
    if (!folder) {
      folder = { path: dir, page: { id: newId(), title: titleFromName(dir), document: null, children: [] } };
      folders.set(dir, folder);
      const parent = folderOf(posix.dirname(dir));
      (parent ? parent.page.children : roots).push(folder.page);
    }
    return folder;
  };
  const roots: ImportedPage[] = [];
  const pageIds = new Map<string, string>();
  const pagesByPath = new Map<string, ImportedPage>();
  const fileIds = new Map<string, string>();
  for (const path of [...paths].sort()) {
    if (!PAGE_FILE.test(path)) {
      fileIds.set(path, newId());
      continue;
    }
    // Only folders holding pages become pages (a folder of images does not).
    const folder = folderOf(posix.dirname(path));
    if (folder && INDEX_FILE.test(posix.basename(path)) && !folder.index) {
      folder.index = path;
      pageIds.set(path, folder.page.id);
      continue;
    }
    const page: ImportedPage = { id: newId(), title: titleFromName(path), document: null, children: [] };
    pageIds.set(path, page.id);
    pagesByPath.set(path, page);
    (folder ? folder.page.children : roots).push(page);
  }

  // Every path a link may name: page files, folders (their README/index page) and other files.
  const index = new PathIndex();
  for (const [path, id] of pageIds) index.set(path, { kind: 'page', page: id });
  for (const [dir, folder] of folders) index.set(dir, { kind: 'page', page: folder.page.id });
  const rootIndex = [...pageIds.keys()].find((p) => !p.includes('/') && INDEX_FILE.test(p));
  if (rootIndex) index.set('', { kind: 'page', page: pageIds.get(rootIndex) as string });
  for (const [path, id] of fileIds) index.set(path, { kind: 'file', file: id });
  const resolver =
    (from: string) =>
    (url: string): ContentRef | null =>
      resolveRelativeUrl(url, from, index);

  const files: FileEntry[] = [];
  for (const path of [...paths].sort()) {
    const bytesOf = data.get(path) as Uint8Array;
    const fileId = fileIds.get(path);
    if (fileId) {
      if (bytesOf.byteLength > MAX_FILE_BYTES) continue;
      files.push(await storeFile(db, { id: fileId, name: posix.basename(path), bytes: bytesOf }));
      continue;
    }
    const text = Buffer.from(bytesOf).toString('utf8');
    const resolveUrl = resolver(path);
    let title: string | undefined;
    let document = null;
    if (/\.html?$/i.test(path)) {
      ({ document, title } = htmlToDocument(text, { resolveUrl }));
    } else {
      const { meta, body } = splitFrontmatter(text);
      document = markdownToDocument(body, { resolveUrl });
      const leading = takeLeadingTitle(document);
      if (leading) document = leading.document;
      title = meta.title ?? leading?.title;
    }
    const folder = folders.get(posix.dirname(path));
    const page = folder && folder.index === path ? folder.page : (pagesByPath.get(path) as ImportedPage);
    page.document = document;
    if (title) page.title = title;
  }
  // Pages come in path order (folders where their first file sorts); every page file is imported.
  return { pages: roots, files, total: paths.length, imported: files.length + pageIds.size };
}
