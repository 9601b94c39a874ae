/**
 * Reads `SUMMARY.md`, GitBook's table of contents: nested lists of links give the pages, their order
 * and nesting; a `## Title` (or deeper) heading starts a group; the `# Table of contents` heading
 * is only a title. An item whose URL is absolute is a link page.
 */
import type { List, ListItem, PhrasingContent, RootContent } from 'mdast';
import { parseMarkdown } from '../content/markdown.js';

export type SummaryEntry =
  | { kind: 'page'; title: string; url: string; children: SummaryEntry[] }
  | { kind: 'group'; title: string; children: SummaryEntry[] };

function text(nodes: ReadonlyArray<PhrasingContent>): string {
  return nodes
    .map((node) => {
      if (node.type === 'text' || node.type === 'inlineCode') return node.value;
      if ('children' in node) return text(node.children as PhrasingContent[]);
      return '';
    })
    .join('');
}

function items(list: List): SummaryEntry[] {
  return list.children.flatMap((item: ListItem) => {
    const nested = item.children.filter((c): c is List => c.type === 'list').flatMap(items);
    const paragraph = item.children.find((c) => c.type === 'paragraph');
    const link = paragraph?.children.find((c) => c.type === 'link');
    // An item without a link holds no page: its subitems take its place.
    if (link?.type !== 'link') return nested;
    return [{ kind: 'page' as const, title: text(link.children).trim(), url: link.url, children: nested }];
  });
}

export function parseSummary(markdown: string): SummaryEntry[] {
  const out: SummaryEntry[] = [];
  let group: SummaryEntry | null = null;
  for (const node of parseMarkdown(markdown).children as RootContent[]) {
    if (node.type === 'heading' && node.depth > 1) {
      group = { kind: 'group', title: text(node.children).trim() || 'Group', children: [] };
      out.push(group);
    } else if (node.type === 'list') {
      (group ? group.children : out).push(...items(node));
    }
  }
  return out;
}
