/**
 * Link extraction: every content reference a document makes (links, inline and block images,
 * file blocks, references in table cells), stored with the document so backlinks and broken-link
 * counts need no re-parsing.
 */
import type { ContentRef } from './document.js';

export interface DocumentLink {
  ref: ContentRef;
  /** The link's text (or an image's alt), for display. */
  text: string;
}

function isRef(value: unknown): value is ContentRef {
  if (!value || typeof value !== 'object') return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'url' || kind === 'page' || kind === 'file' || kind === 'anchor';
}

function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(textOf).join('');
  if (!value || typeof value !== 'object') return '';
  const record = value as Record<string, unknown>;
  if (record.object === 'leaf' && typeof record.text === 'string') return record.text;
  return textOf(record.leaves) + textOf(record.nodes);
}

/** Every reference in `document`, in document order. */
export function extractLinks(document: unknown): DocumentLink[] {
  const links: DocumentLink[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    const data = node.data as Record<string, unknown> | undefined;
    if (data && isRef(data.ref)) {
      const alt = typeof data.alt === 'string' ? data.alt : '';
      links.push({ ref: data.ref, text: node.type === 'link' ? textOf(node.nodes) : alt });
    }
    // Table cells may hold references directly.
    if (node.type === 'table' && data?.records && typeof data.records === 'object') {
      for (const record of Object.values(data.records as Record<string, { values?: Record<string, unknown> }>)) {
        for (const cell of Object.values(record.values ?? {})) if (isRef(cell)) links.push({ ref: cell, text: '' });
      }
    }
    visit(node.nodes);
    visit(node.fragments);
  };
  visit((document as { nodes?: unknown })?.nodes ?? []);
  return links;
}

/** A stable key for a reference, to compare links across revisions. */
export function refKey(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return `url:${ref.url}`;
    case 'page':
      return `page:${ref.space ?? ''}:${ref.page}`;
    case 'file':
      return `file:${ref.space ?? ''}:${ref.file}`;
    case 'anchor':
      return `anchor:${ref.space ?? ''}:${ref.page ?? ''}:${ref.anchor}`;
    default:
      return 'unknown';
  }
}
