/**
 * Splits a page into passages, the unit of search and of AI answers: one passage per section, a
 * section running from a heading (any level) to the next heading. The text before the first heading
 * (with the page description) is section 0, without anchor. Texts are plain (marks, links and
 * formatting dropped; blocks separated by line breaks, table cells by ` | `).
 */

import { anchorOf, type Block, type Heading, inlineText, type JsonDocument } from '../content/document.js';
import { compareOrderIndex } from '../document-model/order-index.js';

export interface Section {
  /** 0 for the opening text, then 1, 2, … in document order. */
  index: number;
  /** The heading's anchor (null for section 0). */
  anchor: string | null;
  heading: string | null;
  text: string;
}

/** Longest text kept per passage (characters); the rest of a very long section is not indexed. */
export const MAX_PASSAGE_CHARS = 20_000;

const HEADINGS = new Set(['heading-1', 'heading-2', 'heading-3']);

/** Plain text of any node of the document (blocks, inlines, texts, fragments), generically. */
function nodeText(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as {
    object?: string;
    type?: string;
    leaves?: Array<{ text?: string }>;
    nodes?: unknown[];
    fragments?: Array<{ fragment: string; nodes?: unknown[] }>;
    data?: {
      alt?: string;
      caption?: string;
      view?: { columns?: string[] };
      definition?: Record<string, { title?: string }>;
      records?: Record<string, { orderIndex?: string; values: Record<string, string> }>;
    };
  };
  if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('');
  if (n.object === 'inline') {
    if (n.type === 'inline-image') return n.data?.alt ?? '';
    return (n.nodes ?? []).map(nodeText).join('');
  }
  if (n.type === 'table' && n.fragments) {
    // The header, then one line per record, cells in column order.
    const fragments = new Map(n.fragments.map((f) => [f.fragment, f]));
    const columns = n.data?.view?.columns ?? Object.keys(n.data?.definition ?? {});
    const header = columns.map((c) => n.data?.definition?.[c]?.title ?? '').join(' | ');
    const records = Object.values(n.data?.records ?? {}).sort((a, b) =>
      compareOrderIndex(a.orderIndex ?? '', b.orderIndex ?? ''),
    );
    const rows = records.map((record) =>
      columns.map((c) => blocksText(fragments.get(record.values[c] ?? '')?.nodes ?? [])).join(' | '),
    );
    return [header, ...rows].filter((line) => line.replace(/[\s|]/g, '') !== '').join('\n');
  }
  const parts: string[] = [];
  if (n.type === 'image' && n.data?.alt) parts.push(n.data.alt);
  if (n.nodes) {
    const isInlineContainer = n.nodes.every((c) => {
      const o = (c as { object?: string })?.object;
      return o === 'text' || o === 'inline';
    });
    parts.push(isInlineContainer ? n.nodes.map(nodeText).join('') : blocksText(n.nodes));
  }
  if (n.fragments) parts.push(...n.fragments.map((f) => blocksText(f.nodes ?? [])));
  return parts.filter((p) => p.trim() !== '').join('\n');
}

function blocksText(blocks: unknown[]): string {
  return blocks
    .map(nodeText)
    .filter((t) => t.trim() !== '')
    .join('\n');
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_PASSAGE_CHARS ? trimmed.slice(0, MAX_PASSAGE_CHARS) : trimmed;
}

/** The sections of a page body; `description` opens section 0. Empty sections are left out. */
export function splitSections(document: JsonDocument | undefined, description?: string): Section[] {
  const sections: Section[] = [];
  let current: { anchor: string | null; heading: string | null; blocks: Block[] } = {
    anchor: null,
    heading: null,
    blocks: [],
  };
  let index = 0;
  const flush = () => {
    const body = blocksText(current.blocks);
    const text = index === 0 && description ? [description, body].filter(Boolean).join('\n') : body;
    if (text.trim() !== '' || current.heading) {
      sections.push({ index, anchor: current.anchor, heading: current.heading, text: clip(text) });
    }
  };
  for (const block of document?.nodes ?? []) {
    if (HEADINGS.has(block.type)) {
      flush();
      index++;
      const heading = block as Heading;
      const title = inlineText(heading.nodes).trim();
      current = { anchor: 'id' in heading.data ? heading.data.id : anchorOf(title), heading: title, blocks: [] };
      continue;
    }
    current.blocks.push(block);
  }
  flush();
  return sections;
}
