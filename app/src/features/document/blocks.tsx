/** Blocks of a Document, drawn as the published site draws them (src/published/render/document.ts). */
import type { ReactNode } from 'react';
import { readerCellSpans } from '../../../../src/document-model/cell-merges.js';
import { recordsInOrder } from '../../../../src/document-model/order-index.js';
import { useDocumentContext } from './Document';
import { Inlines, textOf } from './inlines';
import { refHref, safeHref } from './links';
import type { ContentRef, DocumentNode, ElementNode } from './types';

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

export function Blocks({ nodes }: { nodes: DocumentNode[] | undefined }): ReactNode {
  return (nodes ?? []).map((node, index) => <Block key={(node as ElementNode).key ?? index} node={node} />);
}

export function Block({ node }: { node: DocumentNode }): ReactNode {
  if (node.object === 'text') return <p>{textOf([node])}</p>;
  const data = node.data ?? {};
  switch (node.type) {
    case 'paragraph':
      return <p>{<Inlines nodes={node.nodes} />}</p>;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      // The page title is the h1 of the screen: document headings start one level below it.
      const Tag = node.type === 'heading-1' ? 'h2' : node.type === 'heading-2' ? 'h3' : 'h4';
      const id = typeof data.id === 'string' ? data.id : undefined;
      return (
        <Tag id={id}>
          <Inlines nodes={node.nodes} />
        </Tag>
      );
    }
    case 'divider':
      return <hr />;
    case 'blockquote':
      return (
        <blockquote>
          <Blocks nodes={node.nodes} />
        </blockquote>
      );
    case 'hint': {
      const style = HINT_STYLES.has(String(data.style)) ? String(data.style) : 'info';
      return (
        <div className={`hint hint-${style}`} role="note" aria-label={style}>
          <Blocks nodes={node.nodes} />
        </div>
      );
    }
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return <List node={node} />;
    case 'list-item':
      return <Blocks nodes={node.nodes} />;
    case 'code':
      return <CodeBlock node={node} />;
    case 'images':
      return <Blocks nodes={node.nodes} />;
    case 'image':
      return <Figure node={node} />;
    case 'table':
      return <Table node={node} />;
    case 'tabs':
      return (
        <div className="tabs">
          {(node.nodes ?? []).map((item, index) => (
            <section key={(item as ElementNode).key ?? index} className="tab-panel">
              <p className="tab-title">
                <strong>{String((item as ElementNode).data?.title ?? '')}</strong>
              </p>
              <Blocks nodes={(item as ElementNode).nodes} />
            </section>
          ))}
        </div>
      );
    case 'expandable':
      return (
        <details className="expandable">
          <summary>{textOf(fragment(node, 'expandable-title')?.nodes ?? [])}</summary>
          <Blocks nodes={fragment(node, 'expandable-body')?.nodes ?? node.nodes} />
        </details>
      );
    case 'math':
      return (
        <pre className="math">
          <code>{String(data.formula ?? '')}</code>
        </pre>
      );
    case 'embed':
      return <LinkCard url={String(data.url ?? '')} />;
    default:
      return <Unknown node={node} />;
  }
}

function fragment(node: ElementNode, name: string): ElementNode | undefined {
  return node.fragments?.find(
    (f) => (f.data as { fragment?: string } | undefined)?.fragment === name || f.type === name,
  );
}

function List({ node }: { node: ElementNode }): ReactNode {
  const tasks = node.type === 'list-tasks';
  const items = (node.nodes ?? []).map((item, index) => {
    const element = item as ElementNode;
    const checked = element.data?.checked === true;
    return (
      <li key={element.key ?? index} className={tasks ? 'task' : undefined}>
        {tasks ? <input type="checkbox" checked={checked} disabled aria-label={checked ? 'Done' : 'Not done'} /> : null}
        <div>
          <Blocks nodes={element.nodes} />
        </div>
      </li>
    );
  });
  if (node.type === 'list-ordered') {
    const start = typeof node.data?.start === 'number' ? node.data.start : 1;
    return <ol start={start === 1 ? undefined : start}>{items}</ol>;
  }
  return <ul className={tasks ? 'tasks' : undefined}>{items}</ul>;
}

function CodeBlock({ node }: { node: ElementNode }): ReactNode {
  const code = (node.nodes ?? []).map((line) => textOf((line as ElementNode).nodes ?? [])).join('\n');
  const syntax = typeof node.data?.syntax === 'string' ? node.data.syntax : undefined;
  const title = typeof node.data?.title === 'string' ? node.data.title : undefined;
  return (
    <figure className="code-block">
      {title || syntax ? <figcaption>{title ?? syntax}</figcaption> : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a code block that scrolls must take focus to scroll by keyboard */}
      <pre tabIndex={0}>
        <code data-lang={syntax}>{code}</code>
      </pre>
    </figure>
  );
}

function Figure({ node }: { node: ElementNode }): ReactNode {
  const { spaceId, files } = useDocumentContext();
  const ref = node.data?.ref as ContentRef | undefined;
  const file = ref?.kind === 'file' && ref.file ? files.get(ref.file) : undefined;
  const src = file?.downloadURL ?? (ref?.kind === 'url' ? refHref(ref, spaceId) : undefined);
  const caption = node.fragments?.find((f) => (f as { fragment?: string }).fragment === 'caption');
  if (!src) {
    // A file this view does not know (not in the revision drawn): named, never drawn as raw data.
    const name = file?.name ?? (ref?.kind === 'file' ? ref.file : undefined) ?? 'no file';
    const alt = String(node.data?.alt ?? '');
    return (
      <figure className="image-unavailable" data-type="image">
        <span className="muted">Image</span> {name}
        {alt ? ` — ${alt}` : null}
        {caption ? <figcaption>{textOf(caption.nodes ?? [])}</figcaption> : null}
      </figure>
    );
  }
  return (
    <figure>
      <img src={src} alt={String(node.data?.alt ?? '')} loading="lazy" />
      {caption ? <figcaption>{textOf(caption.nodes ?? [])}</figcaption> : null}
    </figure>
  );
}

interface TableData {
  view?: { columns?: string[]; hideHeader?: boolean };
  definition?: Record<string, { title?: string }>;
  records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
  cellMerges?: unknown;
}

function Table({ node }: { node: ElementNode }): ReactNode {
  const data = (node.data ?? {}) as TableData;
  const columns = data.view?.columns ?? [];
  const fragments = new Map((node.fragments ?? []).map((f) => [(f as { fragment?: string }).fragment, f]));
  // Ordered as the editor and the published site order them (code units, not the locale's order).
  const records = recordsInOrder(data.records ?? {});
  // A merged range is drawn as its anchor cell spanning it, as the editor and the published site do.
  const spans = readerCellSpans(data.cellMerges, records, columns);
  return (
    // A wide table scrolls in its own region, which keyboard users can focus.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard
    <section className="table-wrap" aria-label="Table" tabIndex={0}>
      <table>
        {data.view?.hideHeader ? null : (
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {data.definition?.[column]?.title ?? ''}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {records.map(([id, record], r) => (
            <tr key={id}>
              {columns.map((column, c) => {
                const merged = spans(r, c);
                if (merged === 'covered') return null;
                const value = record.values?.[column];
                const cell = typeof value === 'string' ? fragments.get(value) : undefined;
                return (
                  <td key={column} colSpan={merged?.colSpan} rowSpan={merged?.rowSpan}>
                    {cell ? <Blocks nodes={cell.nodes} /> : value == null ? '' : String(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function LinkCard({ url }: { url: string }): ReactNode {
  const href = safeHref(url);
  let host = url;
  try {
    host = new URL(url).hostname || url;
  } catch {
    // Not a URL with a host: the card shows the address itself.
  }
  const card = (
    <>
      <strong>{host}</strong> <span>{url}</span>
    </>
  );
  return <div className="embed">{href ? <a href={href}>{card}</a> : card}</div>;
}

/** A block this app does not draw yet: its type and its content, never dropped. */
function Unknown({ node }: { node: ElementNode }): ReactNode {
  const { spaceId } = useDocumentContext();
  const ref = node.data?.ref as ContentRef | undefined;
  const href = refHref(ref, spaceId);
  return (
    <div className="unknown-block" data-type={node.type}>
      <span className="muted">{node.type}</span>
      {href ? <a href={href}>{textOf(node.nodes ?? []) || href}</a> : null}
      {node.nodes && node.object === 'block' ? <Blocks nodes={node.nodes} /> : <Inlines nodes={node.nodes} />}
    </div>
  );
}
