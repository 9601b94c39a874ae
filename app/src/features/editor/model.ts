/**
 * The editor's document model: the TipTap extensions and the two conversions between the official
 * Document (JSON) and TipTap's JSON. Every other file of the editor uses only these four exports.
 *
 * PLACEHOLDER. The lossless model is written apart, in `src/document-model/` (every block, inline
 * and mark of the Document format, nodes kept intact when not editable). At merge the lead replaces
 * this whole file by:
 *
 *   export { documentToEditor, editorToDocument, extensions, getSchema } from '../../../../src/document-model';
 *
 * (adjusting the path or alias to how the app reaches src/). Until then this covers what the editor's
 * tests write: paragraphs, headings 1–3, bulleted, numbered and task lists, code blocks, quotes,
 * hints (edited as quotes, so their style is lost here), dividers, and the bold, italic, code and
 * strikethrough marks. Anything else is dropped on save: do not ship this file.
 */
import { type Extensions, type JSONContent, getSchema as schemaOf } from '@tiptap/core';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { TableKit } from '@tiptap/extension-table';
import type { Schema } from '@tiptap/pm/model';
import StarterKit from '@tiptap/starter-kit';
import type { DocumentNode, ElementNode, JSONDocument, Leaf, Mark } from '../document/types';

export const extensions: Extensions = [
  StarterKit.configure({ heading: { levels: [1, 2, 3] }, link: false, underline: false }),
  TaskList,
  TaskItem.configure({ nested: true }),
  TableKit,
];

export function getSchema(): Schema {
  return schemaOf(extensions);
}

const MARKS: Record<string, string> = { bold: 'bold', italic: 'italic', code: 'code', strikethrough: 'strike' };
const MARKS_BACK = Object.fromEntries(Object.entries(MARKS).map(([a, b]) => [b, a]));

function textOf(nodes: DocumentNode[] = []): JSONContent[] {
  const out: JSONContent[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        if (!leaf.text) continue;
        const marks = (leaf.marks ?? []).flatMap((m) => (MARKS[m.type] ? [{ type: MARKS[m.type] as string }] : []));
        out.push({ type: 'text', text: leaf.text, ...(marks.length ? { marks } : {}) });
      }
    } else out.push(...textOf(node.nodes));
  }
  return out;
}

function blockToEditor(node: DocumentNode): JSONContent[] {
  if (node.object !== 'block') return [{ type: 'paragraph', content: textOf([node]) }];
  const children = (node.nodes ?? []).flatMap(blockToEditor);
  const heading = /^heading-([1-3])$/.exec(node.type);
  if (heading) return [{ type: 'heading', attrs: { level: Number(heading[1]) }, content: textOf(node.nodes) }];
  switch (node.type) {
    case 'paragraph':
      return [{ type: 'paragraph', content: textOf(node.nodes) }];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks': {
      const type = { 'list-unordered': 'bulletList', 'list-ordered': 'orderedList', 'list-tasks': 'taskList' }[
        node.type
      ];
      const item = node.type === 'list-tasks' ? 'taskItem' : 'listItem';
      const items = (node.nodes ?? []).map((li) => ({
        type: item,
        ...(item === 'taskItem' ? { attrs: { checked: Boolean((li as ElementNode).data?.checked) } } : {}),
        content: paragraphs(((li as ElementNode).nodes ?? []).flatMap(blockToEditor)),
      }));
      return [{ type, content: items }];
    }
    case 'code': {
      const lines = (node.nodes ?? []).map((line) =>
        textOf([line])
          .map((t) => t.text ?? '')
          .join(''),
      );
      const text = lines.join('\n');
      const language = typeof node.data?.syntax === 'string' ? node.data.syntax : null;
      return [{ type: 'codeBlock', attrs: { language }, content: text ? [{ type: 'text', text }] : [] }];
    }
    case 'blockquote':
    case 'hint':
      return [{ type: 'blockquote', content: paragraphs(children) }];
    case 'divider':
      return [{ type: 'horizontalRule' }];
    default:
      return children;
  }
}

function paragraphs(content: JSONContent[]): JSONContent[] {
  return content.length ? content : [{ type: 'paragraph' }];
}

/** The official Document → TipTap JSON (a `doc` node). */
export function documentToEditor(document: JSONDocument | null | undefined): JSONContent {
  const content = (document?.nodes ?? []).flatMap(blockToEditor);
  return { type: 'doc', content: paragraphs(content) };
}

function leavesOf(content: JSONContent[] = []): DocumentNode[] {
  const leaves: Leaf[] = content
    .filter((n) => n.type === 'text' && n.text)
    .map((n) => {
      const marks: Mark[] = (n.marks ?? []).flatMap((m) =>
        MARKS_BACK[m.type] ? [{ object: 'mark' as const, type: MARKS_BACK[m.type] as string }] : [],
      );
      return { object: 'leaf', text: n.text ?? '', marks };
    });
  return [{ object: 'text', leaves: leaves.length ? leaves : [{ object: 'leaf', text: '', marks: [] }] }];
}

// Complete official shapes (`data` on every block, `marks` on every leaf): the server reads bodies
// with the official types and does not yet check them below the top level.
const block = (type: string, nodes: DocumentNode[], data: Record<string, unknown> = {}): ElementNode => ({
  object: 'block',
  type,
  data,
  nodes,
});

function nodeToDocument(node: JSONContent): ElementNode[] {
  const inner = () => (node.content ?? []).flatMap(nodeToDocument);
  switch (node.type) {
    case 'paragraph':
      return [block('paragraph', leavesOf(node.content))];
    case 'heading':
      return [block(`heading-${node.attrs?.level ?? 1}`, leavesOf(node.content))];
    case 'bulletList':
    case 'orderedList':
    case 'taskList': {
      const type = { bulletList: 'list-unordered', orderedList: 'list-ordered', taskList: 'list-tasks' }[node.type];
      const items = (node.content ?? []).map((item) =>
        block(
          'list-item',
          (item.content ?? []).flatMap(nodeToDocument),
          item.type === 'taskItem' ? { checked: Boolean(item.attrs?.checked) } : undefined,
        ),
      );
      return [block(type, items)];
    }
    case 'codeBlock': {
      const text = (node.content ?? []).map((t) => t.text ?? '').join('');
      const lines = text.split('\n').map((line) => block('code-line', leavesOf([{ type: 'text', text: line }])));
      return [block('code', lines, node.attrs?.language ? { syntax: node.attrs.language } : undefined)];
    }
    case 'blockquote':
      return [block('blockquote', inner())];
    case 'horizontalRule':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    default:
      return inner();
  }
}

/** TipTap JSON (a `doc` node) → the official Document. */
export function editorToDocument(json: JSONContent): JSONDocument {
  return { object: 'document', data: {}, nodes: (json.content ?? []).flatMap(nodeToDocument) };
}
