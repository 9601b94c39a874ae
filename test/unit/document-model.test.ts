/**
 * The shared Document model (src/document-model): every document the project's tests write survives
 * Document → editor → Document, through ProseMirror itself; what the editor does not map is an
 * atom carrying its JSON; what is not a document is refused with its path.
 */
import { Node } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/markdown.js';
import {
  checkDocumentModel,
  DocumentModelError,
  documentSchema,
  documentToEditor,
  type EditorNode,
  editorToDocument,
} from '../../src/document-model/index.js';
import { expectLossless } from '../helpers/document-model.js';
import { hostileDocument } from '../helpers/hostile.js';

const RICH_MARKDOWN = [
  '# Title',
  '',
  'Some **bold _and_ italic**, ~~struck~~, `code` and a [link](https://example.com "t") with ![an image](https://example.com/i.png).',
  '',
  '## Section',
  '',
  '> A quote with **bold**',
  '>',
  '> > nested',
  '',
  '- one',
  '- two',
  '  1. inner',
  '  2. again',
  '',
  '3. starts at three',
  '',
  '- [ ] todo',
  '- [x] done',
  '',
  '```js',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '{% hint style="danger" %}',
  'Careful: **really**',
  '{% endhint %}',
  '',
  '{% tabs %}',
  '{% tab title="npm" %}',
  '```sh',
  'npm install',
  '```',
  '{% endtab %}',
  '{% tab title="Other" %}',
  'A *tab*.',
  '{% endtab %}',
  '{% endtabs %}',
  '',
  '{% embed url="https://www.youtube.com/watch?v=abc" %}',
  '',
  '| Name | Value |',
  '| ---- | ----: |',
  '| a    | 1     |',
  '| b *c* | `2` |',
  '',
  '![Block image](https://example.com/b.png)',
  '',
  '---',
  '',
  '### Last',
  '',
  'Line one  ',
  'line two.',
].join('\n');

const text = (value: string, marks: string[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
const p = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });

describe('document model: the documents of the tests', () => {
  it('keeps the Markdown importer output of a rich sample', () => {
    const document = markdownToDocument(RICH_MARKDOWN);
    const types = new Set(JSON.stringify(document).match(/"type":"[a-z0-9-]+"/g));
    for (const type of ['hint', 'tabs', 'embed', 'table', 'images', 'code', 'list-tasks', 'blockquote', 'link']) {
      expect(types).toContain(`"type":"${type}"`);
    }
    const json = expectLossless(document);
    // The importer writes the canonical spelling: no textblock needs its inlines kept as read.
    expect(JSON.stringify(json)).not.toMatch(/"inlineSource":\[/);
  });

  it('keeps the hostile document (script URLs, an image outside images, a void block with nodes)', () => {
    const json = expectLossless(hostileDocument());
    const types = (json.content ?? []).map((n) => n.type);
    expect(types).toContain('embed');
    expect(types).toContain('contentRef');
    // The format puts an image only in an images block: elsewhere the editor holds it as an atom.
    expect(types).toContain('blockAtom');
  });

  it('keeps the small documents the API tests send', () => {
    expectLossless({ object: 'document', nodes: [{ object: 'block', type: 'divider' }] });
    expectLossless({ object: 'document', data: { 'a\u0000b': 1 }, nodes: [] });
    expectLossless(doc({ object: 'block', type: 'paragraph', data: {}, nodes: [text('Doc')] }));
    expectLossless(
      doc(p({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } })),
    );
    expectLossless(
      doc(
        p(
          text('Install it. See also the '),
          {
            object: 'inline',
            type: 'link',
            isVoid: false,
            data: { ref: { kind: 'page', page: 'p1', space: 's1' } },
            nodes: [text('endpoints')],
          },
          text(' of the API.'),
        ),
      ),
    );
  });
});

describe('document model: mapping', () => {
  it('maps blocks, marks and inlines to editor nodes', () => {
    const json = documentToEditor(
      doc(
        { object: 'block', type: 'heading-2', key: 'h', data: { id: 'x' }, nodes: [text('T', ['bold', 'italic'])] },
        { object: 'block', type: 'hint', data: { style: 'success' }, nodes: [p(text('in'))] },
      ),
    );
    expect(json.content?.[0]).toEqual({
      type: 'heading',
      attrs: { level: 2, key: 'h', data: { id: 'x' }, extra: null, order: null, inlineSource: null },
      content: [
        {
          type: 'text',
          text: 'T',
          marks: [
            { type: 'bold', attrs: { data: null } },
            { type: 'italic', attrs: { data: null } },
          ],
        },
      ],
    });
    expect(json.content?.[1]?.type).toBe('hint');
  });

  it('keeps unknown blocks, inlines and marks as atoms, and misplaced blocks too', () => {
    const unknownBlock = { object: 'block', type: 'future-block', data: { x: 1 }, nodes: [p(text('a'))] };
    const unknownInline = { object: 'inline', type: 'future-inline', isVoid: true, data: {} };
    const unknownMark = { object: 'mark', type: 'glow', data: { level: 2 } };
    const listWithParagraph = { object: 'block', type: 'list-unordered', nodes: [p(text('not an item'))] };
    const document = doc(
      unknownBlock,
      p(text('x'), unknownInline, { object: 'text', leaves: [{ object: 'leaf', text: 'y', marks: [unknownMark] }] }),
      listWithParagraph,
      { object: 'block', type: 'list-item', nodes: [] },
    );
    const json = expectLossless(document);
    expect(json.content?.map((n) => n.type)).toEqual(['blockAtom', 'paragraph', 'blockAtom', 'blockAtom']);
    expect(json.content?.[0]?.attrs?.json).toEqual(unknownBlock);
    expect(json.content?.[1]?.content?.map((n) => n.type)).toEqual(['text', 'inlineAtom', 'text']);
    expect(json.content?.[1]?.content?.[2]?.marks).toEqual([{ type: 'markAtom', attrs: { json: unknownMark } }]);
  });

  it('writes a textblock as read while unchanged, and canonically once edited', () => {
    const spelt = p(
      {
        object: 'text',
        key: 't1',
        leaves: [
          {
            object: 'leaf',
            text: 'ab',
            marks: [
              { object: 'mark', type: 'italic' },
              { object: 'mark', type: 'bold' },
            ],
          },
        ],
      },
      {
        object: 'text',
        key: 't2',
        leaves: [
          { object: 'leaf', text: '', marks: [] },
          { object: 'leaf', text: 'c', marks: [] },
        ],
      },
    );
    const json = expectLossless(doc(spelt));
    const paragraph = json.content?.[0] as EditorNode;
    expect(paragraph.attrs?.inlineSource).toEqual(spelt.nodes);
    (paragraph.content?.[1] as EditorNode).text = 'cd';
    expect(editorToDocument(json).nodes[0]).toStrictEqual(
      p({
        object: 'text',
        leaves: [
          {
            object: 'leaf',
            text: 'ab',
            marks: [
              { object: 'mark', type: 'bold' },
              { object: 'mark', type: 'italic' },
            ],
          },
          { object: 'leaf', text: 'cd', marks: [] },
        ],
      }),
    );
  });

  it('writes nodes made in the editor with the properties the format requires', () => {
    const made: EditorNode = {
      type: 'doc',
      content: [
        { type: 'paragraph' },
        { type: 'divider' },
        { type: 'hint', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }] },
      ],
    };
    const filled = Node.fromJSON(documentSchema(), made).toJSON() as EditorNode;
    expect(editorToDocument(filled)).toStrictEqual(
      doc(
        p(text('')),
        { object: 'block', type: 'divider', isVoid: true, data: {} },
        { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [p(text('x'))] },
      ),
    );
  });
});

describe('document model: refusals', () => {
  const refused = (document: unknown): string => {
    try {
      checkDocumentModel(document);
    } catch (error) {
      expect(error).toBeInstanceOf(DocumentModelError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('names the path of what is not a document', () => {
    expect(refused({ object: 'page', nodes: [] })).toBe('must be a document (object "document")');
    expect(refused(doc(text('loose')))).toBe('nodes/0: must be a block (object "block")');
    expect(refused(doc(p({ object: 'text', leaves: [{ object: 'leaf', text: 3, marks: [] }] })))).toBe(
      'nodes/0/nodes/0/leaves/0/text: must be a string',
    );
    expect(refused(doc(p(text('a'), { object: 'inline', type: 'link', nodes: [p()] })))).toBe(
      'nodes/0/nodes/1/nodes/0: must be a text or an inline (an inline holds no blocks)',
    );
    expect(refused(doc({ object: 'block', type: 'hint', data: 'info', nodes: [] }))).toBe(
      'nodes/0/data: must be an object',
    );
    expect(refused(doc({ object: 'block', type: 'image', fragments: [{ nodes: [] }] }))).toBe(
      'nodes/0/fragments/0: must be a fragment (object "fragment")',
    );
    expect(
      refused(doc(p({ object: 'text', leaves: [{ object: 'leaf', text: 'a', marks: [{ type: 'bold' }] }] }))),
    ).toBe('nodes/0/nodes/0/leaves/0/marks/0: must be a mark (object "mark")');
  });
});
