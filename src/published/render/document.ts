/**
 * A page's Document → hast, for the published site. Every text of the document becomes a hast text
 * node (escaped when serialized), every attribute a property: nothing of the content is ever
 * concatenated into HTML.
 *
 * The page title is the page's `<h1>`, so the body's headings are one level down (heading-1 → h2,
 * as GitBook renders them); each carries its anchor as id and a permalink. References resolve through
 * the caller's {@link DocumentContext}, so links stay inside the site's own URLs.
 */

import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { HighlighterCore } from 'shiki/core';
import {
  anchorOf,
  type Block,
  type ContentRef,
  type Fragment,
  type Image,
  type Inline,
  inlineText,
  type Leaf,
  nodeText,
  type Table,
  type Tabs,
} from '../../content/document.js';
import { readerCellSpans } from '../../document-model/cell-merges.js';
import { recordsInOrder } from '../../document-model/order-index.js';
import { safeUrl } from '../../lib/safe-url.js';
import { type CodeThemes, HighlightBudget, highlight, languageOf } from './highlight.js';

export interface ResolvedLink {
  href: string;
  /** Leaves the site (opened per the `externalLinks` customization). */
  external: boolean;
}

export interface ResolvedFile {
  url: string;
  name: string;
  contentType: string;
  size: number;
}

export interface DocumentContext {
  /** Where a reference leads on the site; null when it leads nowhere a reader may go. */
  link(ref: ContentRef): ResolvedLink | null;
  /** The file a `file` reference names, served by the site. */
  file(ref: ContentRef): ResolvedFile | null;
  highlighter: HighlighterCore | null;
  codeThemes: CodeThemes;
  /** `externalLinks.target` of the customization. */
  externalTarget: 'self' | 'blank';
}

export interface TocEntry {
  id: string;
  text: string;
  /** 1 or 2 (heading-1, heading-2); heading-3 is not listed. */
  depth: number;
}

export interface RenderedDocument {
  body: ElementContent[];
  toc: TocEntry[];
}

const text = (value: string): ElementContent => ({ type: 'text', value });

/** The languages of a document's code blocks that Shiki knows (to load them before rendering). */
export function codeLanguages(nodes: ReadonlyArray<unknown>): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const node = value as { type?: unknown; data?: { syntax?: unknown }; nodes?: unknown };
    if (node.type === 'code') {
      const language = languageOf(typeof node.data?.syntax === 'string' ? node.data.syntax : undefined);
      if (language) found.add(language);
      return;
    }
    visit(node.nodes);
  };
  visit(nodes);
  return found;
}

export class DocumentRenderer {
  private readonly ids = new Set<string>();
  private readonly toc: TocEntry[] = [];
  /** One render is one page: what it may highlight. */
  private readonly highlighting = new HighlightBudget();

  constructor(private readonly context: DocumentContext) {}

  render(nodes: ReadonlyArray<Block>): RenderedDocument {
    return { body: this.blocks(nodes), toc: this.toc };
  }

  private leaf(leaf: Leaf): ElementContent {
    let node: ElementContent = text(leaf.text);
    const has = (type: string) => leaf.marks.some((m) => m.type === type);
    if (has('code')) node = h('code', [node]);
    if (has('strikethrough')) node = h('s', [node]);
    if (has('italic')) node = h('em', [node]);
    if (has('bold')) node = h('strong', [node]);
    return node;
  }

  /** An anchor's attributes; null when the target is no URL a page may link to (then no anchor is made). */
  private anchorProps(link: ResolvedLink): Record<string, string> | null {
    const href = safeUrl(link.href);
    if (href === null) return null;
    if (!link.external) return { href };
    return this.context.externalTarget === 'blank'
      ? { href, target: '_blank', rel: 'noopener noreferrer' }
      : { href, rel: 'noopener' };
  }

  inlines(nodes: ReadonlyArray<Inline>): ElementContent[] {
    const out: ElementContent[] = [];
    for (const node of nodes) {
      if (node.object === 'text') {
        for (const leaf of node.leaves) if (leaf.text !== '') out.push(this.leaf(leaf));
      } else if (node.type === 'link') {
        const children = this.inlines(node.nodes);
        const link = this.context.link(node.data.ref);
        const props = link ? this.anchorProps(link) : null;
        // A reference to something the site does not show (or to no safe URL) keeps its text, without a link.
        out.push(props ? h('a', props, children) : h('span.unresolved', children));
      } else if (node.type === 'inline-image') {
        const image = this.image(node.data.ref, node.data.alt ?? '');
        if (image) out.push(image);
      }
    }
    return out;
  }

  private image(ref: ContentRef, alt: string): Element | null {
    const src = safeUrl(ref.kind === 'url' ? ref.url : this.context.file(ref)?.url, 'image');
    return src ? h('img', { src, alt, loading: 'lazy', decoding: 'async' }) : null;
  }

  private heading(block: Extract<Block, { type: 'heading-1' | 'heading-2' | 'heading-3' }>): Element {
    const label = inlineText(block.nodes).trim();
    // `data` is required by the format, but a document saved without it must not break the page.
    const own = (block.data as { id?: unknown } | undefined)?.id;
    let id = typeof own === 'string' && own ? own : anchorOf(label) || 'section';
    // Two headings with the same text: the second gets a suffix, so each anchor leads somewhere.
    for (let n = 2; this.ids.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
    this.ids.add(id);
    const level = Number(block.type.slice(-1));
    if (level <= 2) this.toc.push({ id, text: label, depth: level });
    return h(`h${level + 1}`, { id }, [
      ...this.inlines(block.nodes),
      h('a.anchor', { href: `#${id}`, 'aria-label': `Link to ${label || 'this section'}` }, [text('#')]),
    ]);
  }

  private fragment(fragment: Fragment | undefined): ElementContent[] {
    const out: ElementContent[] = [];
    (fragment?.nodes ?? []).forEach((p, i) => {
      if (i > 0) out.push(h('br'));
      out.push(...(p.type === 'paragraph' ? this.inlines(p.nodes) : [text(nodeText(p))]));
    });
    return out;
  }

  private table(block: Table): Element {
    const { columns, hideHeader } = block.data.view;
    const definitions = columns.map((id) => block.data.definition[id]);
    const fragments = new Map(block.fragments.map((f) => [f.fragment, f]));
    const align = (i: number) => {
      const alignment = definitions[i]?.textAlignment;
      return alignment && alignment !== 'left' ? { className: [`align-${alignment}`] } : {};
    };
    const records = recordsInOrder(block.data.records);
    // A merged range is drawn as its anchor cell spanning it; the cells it covers are not drawn.
    const spans = readerCellSpans(block.data.cellMerges, records, columns);
    const rows = records.map(([, record], r) =>
      h(
        'tr',
        columns.flatMap((column, i) => {
          const merged = spans(r, i);
          if (merged === 'covered') return [];
          const value: unknown = record.values[column];
          const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
          const span = merged ? { colSpan: merged.colSpan, rowSpan: merged.rowSpan } : {};
          return [
            h(
              'td',
              { ...align(i), ...span },
              fragment ? this.fragment(fragment) : value == null ? [] : [text(nodeText(value))],
            ),
          ];
        }),
      ),
    );
    const head = hideHeader
      ? []
      : [
          h(
            'thead',
            h(
              'tr',
              definitions.map((d, i) => h('th', { scope: 'col', ...align(i) }, [text(d?.title ?? '')])),
            ),
          ),
        ];
    // A wide table scrolls inside its own region, which keyboard users can focus.
    return h('div.table-wrap', { role: 'region', tabindex: 0, 'aria-label': 'Table' }, [
      h('table', [...head, h('tbody', rows)]),
    ]);
  }

  private figure(img: Image): Element | null {
    const element = this.image(img.data.ref, img.data.alt ?? '');
    if (!element) return null;
    const caption = img.fragments.find((f) => f.fragment === 'caption');
    const captionContent = caption ? this.fragment(caption) : [];
    return h('figure', [element, ...(captionContent.length > 0 ? [h('figcaption', captionContent)] : [])]);
  }

  private blocks(nodes: ReadonlyArray<Block>): ElementContent[] {
    return nodes.flatMap((node) => this.block(node));
  }

  private block(node: Block): ElementContent[] {
    switch (node.type) {
      case 'paragraph': {
        const content = this.inlines(node.nodes);
        return content.length > 0 ? [h('p', content)] : [];
      }
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return [this.heading(node)];
      case 'divider':
        return [h('hr')];
      case 'blockquote':
        return [h('blockquote', this.blocks(node.nodes))];
      case 'hint': {
        const style = ['info', 'warning', 'danger', 'success'].includes(node.data?.style) ? node.data.style : 'info';
        return [
          h(`div.hint.hint-${style}`, { role: 'note', 'aria-label': style }, [
            h('span.hint-icon', { 'aria-hidden': 'true' }),
            h('div.hint-body', this.blocks(node.nodes)),
          ]),
        ];
      }
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks': {
        const tasks = node.type === 'list-tasks';
        const items = node.nodes.map((item) => {
          const content = this.blocks(item.nodes ?? []);
          if (!tasks) return h('li', content);
          const checked = item.data?.checked === true;
          return h('li.task', [
            h('input', { type: 'checkbox', checked, disabled: true, 'aria-label': checked ? 'Done' : 'Not done' }),
            h('div', content),
          ]);
        });
        if (node.type === 'list-ordered') {
          const start = node.data?.start ?? 1;
          return [h('ol', start !== 1 ? { start } : {}, items)];
        }
        return [h(tasks ? 'ul.tasks' : 'ul', items)];
      }
      case 'list-item':
        return [h('div', this.blocks(node.nodes))];
      case 'code': {
        const code = node.nodes.map((line) => nodeText(line.nodes)).join('\n');
        const language = languageOf(node.data?.syntax);
        const pre = highlight(this.context.highlighter, code, language, this.context.codeThemes, this.highlighting);
        const label = node.data?.syntax?.trim();
        return [h('div.code-block', label ? { 'data-lang': label } : {}, [pre])];
      }
      case 'images':
        return node.nodes.flatMap((img) => this.figure(img) ?? []);
      case 'image': {
        const figure = this.figure(node);
        return figure ? [figure] : [];
      }
      case 'table':
        return [this.table(node)];
      case 'tabs':
        return [this.tabs(node)];
      case 'tabs-item':
        return this.blocks(node.nodes);
      case 'embed':
        return [this.embed(node.data.url)];
      default:
        return this.unknown(node as unknown as Record<string, unknown>);
    }
  }

  /**
   * Tabs: every tab's title and content, one after the other, so the page reads whole without
   * JavaScript (and in print); the site script turns them into a tab list (ARIA tabs pattern).
   */
  private tabs(node: Tabs): Element {
    return h(
      'div.content-tabs',
      node.nodes.map((item) =>
        h('div.tab-panel', { 'data-title': item.data.title }, [
          h('p.tab-title', [h('strong', [text(item.data.title)])]),
          ...this.blocks(item.nodes),
        ]),
      ),
    );
  }

  /**
   * An embedded URL, as a link card: the site makes no request to the embedded service on the
   * reader's behalf (no third-party frames or scripts), and the reader follows the link. A URL no
   * page may link to (`javascript:`…) shows as the card's text, without a link.
   */
  private embed(url: string): Element {
    let host = url;
    try {
      host = new URL(url).hostname || url;
    } catch {
      // Not a URL the card can name a host for: it shows the address itself.
    }
    const card = [h('strong', [text(host)]), h('span', [text(url)])];
    const props = this.anchorProps({ href: url, external: true });
    return h('div.embed', [props ? h('a', props, card) : h('div.unresolved', card)]);
  }

  /**
   * Blocks of the official format that Bindery does not edit (a client may have posted them as
   * JSON): a file block is a download link, a block with a reference a link card, anything else its text.
   */
  private unknown(node: Record<string, unknown>): ElementContent[] {
    const data = node.data as { ref?: ContentRef } | undefined;
    const label = nodeText(node).trim();
    if (data?.ref) {
      if (data.ref.kind === 'file') {
        const file = this.context.file(data.ref);
        const href = safeUrl(file?.url);
        if (file && href) {
          return [h('p.file', [h('a', { href, download: file.name }, [text(label || file.name)])])];
        }
      }
      const link = this.context.link(data.ref);
      const props = link ? this.anchorProps(link) : null;
      if (link && props) return [h('p.card', [h('a', props, [text(label || link.href)])])];
    }
    return label ? [h('p', [text(label)])] : [];
  }
}
