/** What every importer produces: a tree of pages (bodies not yet stored) and the files it stored. */
import type { JsonDocument } from '../document.js';
import type { FileEntry } from '../store.js';

export interface ImportedPage {
  /** Assigned before bodies are converted, so imported pages can link to each other. */
  id: string;
  title: string;
  document: JsonDocument | null;
  children: ImportedPage[];
}

export interface ImportBundle {
  pages: ImportedPage[];
  files: FileEntry[];
  /** Resources found in the source (pages and files), imported or not. */
  total: number;
  /** Resources of the source that became pages or files. */
  imported: number;
}

export interface ImportContext {
  allowPrivate: boolean;
}

/** A page title from a file or URL name: `getting-started.md` → `Getting started`. */
export function titleFromName(name: string): string {
  const base = decodeURIComponent(name.replace(/\/+$/, '').split('/').pop() ?? '')
    .replace(/\.(md|markdown|html?|docx)$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return base ? base.charAt(0).toUpperCase() + base.slice(1) : 'Imported page';
}
