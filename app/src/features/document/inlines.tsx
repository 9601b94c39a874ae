/** Texts with their marks, links, inline images, math and mentions. */
import type { ReactNode } from 'react';
import { useDocumentContext } from './Document';
import { refHref } from './links';
import type { ContentRef, DocumentNode, ElementNode, Leaf } from './types';

const MARK_TAGS: Record<string, (children: ReactNode) => ReactNode> = {
  bold: (c) => <strong>{c}</strong>,
  italic: (c) => <em>{c}</em>,
  code: (c) => <code>{c}</code>,
  strikethrough: (c) => <s>{c}</s>,
  underline: (c) => <u>{c}</u>,
  color: (c) => <mark>{c}</mark>,
};

function LeafView({ leaf }: { leaf: Leaf }): ReactNode {
  let out: ReactNode = leaf.text;
  for (const mark of leaf.marks ?? []) out = (MARK_TAGS[mark.type] ?? ((c: ReactNode) => <span>{c}</span>))(out);
  return out;
}

export function Inlines({ nodes }: { nodes: DocumentNode[] | undefined }): ReactNode {
  // A document drawn for reading does not reorder its inlines: their position is their identity.
  // biome-ignore lint/suspicious/noArrayIndexKey: see above
  return (nodes ?? []).map((node, index) => <Inline key={index} node={node} />);
}

function Inline({ node }: { node: DocumentNode }): ReactNode {
  // biome-ignore lint/suspicious/noArrayIndexKey: leaves of a text keep their order while it is read
  if (node.object === 'text') return node.leaves.map((leaf, index) => <LeafView key={index} leaf={leaf} />);
  return <InlineElement node={node} />;
}

function InlineElement({ node }: { node: ElementNode }): ReactNode {
  const { spaceId, files, users } = useDocumentContext();
  const ref = node.data?.ref as ContentRef | undefined;
  switch (node.type) {
    case 'link': {
      const href = refHref(ref, spaceId);
      const inner = <Inlines nodes={node.nodes} />;
      return href ? <a href={href}>{inner}</a> : <span>{inner}</span>;
    }
    case 'inline-image': {
      const file = ref?.kind === 'file' && ref.file ? files.get(ref.file) : undefined;
      const src = file?.downloadURL ?? (ref?.kind === 'url' ? refHref(ref, spaceId) : undefined);
      return src ? <img className="inline-image" src={src} alt={String(node.data?.alt ?? file?.name ?? '')} /> : null;
    }
    case 'inline-math':
      return <code className="math">{String(node.data?.formula ?? '')}</code>;
    case 'mention':
    case 'inline-mention':
      return <span className="mention">{mentionText(node, ref, users)}</span>;
    case 'annotation':
      return (
        <span className="annotation" title={textOf(node.fragments ?? [])}>
          <Inlines nodes={node.nodes} />
        </span>
      );
    case 'emoji':
      return <span>{String(node.data?.code ?? '')}</span>;
    default:
      return <Inlines nodes={node.nodes} />;
  }
}

function mentionText(node: ElementNode, ref: ContentRef | undefined, users?: ReadonlyMap<string, string>): string {
  const text = textOf(node.nodes ?? []);
  const user = (ref as { user?: string } | undefined)?.user;
  const name = user ? users?.get(user) : undefined;
  return text || `@${name ?? ref?.page ?? ref?.space ?? String(user ?? '')}`;
}

/** The plain text of nodes (titles of annotations, anchors of headings). */
export function textOf(nodes: DocumentNode[]): string {
  return nodes
    .map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : textOf(node.nodes ?? [])))
    .join('');
}
