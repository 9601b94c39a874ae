/** Document ⇄ Markdown: every construct survives both directions. */
import { describe, expect, it } from 'vitest';
import type { Block, JsonDocument, MarkType } from '../../src/content/document.js';
import { extractLinks } from '../../src/content/links.js';
import { documentToMarkdown, markdownToDocument, splitFrontmatter } from '../../src/content/markdown.js';

const text = (value: string, marks: MarkType[] = []) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: marks.map((type) => ({ object: 'mark' as const, type })) }],
});
const p = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes }) as Block;
const doc = (...nodes: Block[]): JsonDocument => ({ object: 'document', data: {}, nodes });

/** Markdown → document → Markdown is stable, and document → Markdown → document is the identity. */
function roundTrip(markdown: string): JsonDocument {
  const document = markdownToDocument(markdown);
  const written = documentToMarkdown(document);
  expect(markdownToDocument(written)).toEqual(document);
  expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  return document;
}

const CONSTRUCTS: Record<string, [string, (d: JsonDocument) => void]> = {
  headings: [
    '# One\n\n## Two\n\n### Three\n',
    (d) => expect(d.nodes.map((n) => n.type)).toEqual(['heading-1', 'heading-2', 'heading-3']),
  ],
  paragraphs: ['First paragraph.\n\nSecond one.\n', (d) => expect(d.nodes).toHaveLength(2)],
  marks: [
    'Some **bold**, *italic*, ~~struck~~, `code` and ***both***, **bold *nested***.\n',
    (d) => {
      const leaves = (d.nodes[0] as { nodes: Array<{ leaves: Array<{ marks: Array<{ type: string }> }> }> }).nodes[0]!
        .leaves;
      const marks = leaves.map((l) => l.marks.map((m) => m.type).join('+')).filter(Boolean);
      expect(marks).toEqual(['bold', 'italic', 'strikethrough', 'code', 'bold+italic', 'bold', 'bold+italic']);
    },
  ],
  'unordered, ordered, nested and task lists': [
    '- a\n- b\n  - nested\n\n1. one\n2. two\n\n---\n\n3. three\n4. four\n\n- [ ] todo\n- [x] done\n',
    (d) => {
      expect(d.nodes.map((n) => n.type)).toEqual([
        'list-unordered',
        'list-ordered',
        'divider',
        'list-ordered',
        'list-tasks',
      ]);
      expect(d.nodes[3]).toMatchObject({ data: { start: 3 } });
      expect((d.nodes[4] as { nodes: Array<{ data: unknown }> }).nodes.map((i) => i.data)).toEqual([
        { checked: false },
        { checked: true },
      ]);
    },
  ],
  code: [
    '```ts\nconst a = 1;\n\nconsole.log(a);\n```\n\n```\nplain\n```\n',
    (d) => {
      expect(d.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'ts' } });
      expect((d.nodes[0] as { nodes: unknown[] }).nodes).toHaveLength(3);
      expect(d.nodes[1]).toMatchObject({ type: 'code', data: {} });
    },
  ],
  quotes: ['> quoted **text**\n>\n> > nested\n', (d) => expect(d.nodes[0]).toMatchObject({ type: 'blockquote' })],
  tables: [
    '| Name | Value | Note |\n| :-- | :-: | --: |\n| a | **1** | [x](https://x.test) |\n| b | 2 | |\n',
    (d) => {
      const table = d.nodes[0] as unknown as {
        data: { definition: Record<string, { title: string; textAlignment: string }>; records: object };
      };
      expect(Object.values(table.data.definition).map((c) => [c.title, c.textAlignment])).toEqual([
        ['Name', 'left'],
        ['Value', 'center'],
        ['Note', 'right'],
      ]);
      expect(Object.keys(table.data.records)).toHaveLength(2);
    },
  ],
  images: [
    '![Alt text](https://img.test/a.png "A caption")\n\n![](/files/abc) ![second](/files/def)\n\nText with ![icon](https://img.test/i.png) inline.\n',
    (d) => {
      expect(d.nodes.map((n) => n.type)).toEqual(['images', 'images', 'paragraph']);
      expect(d.nodes[0]).toMatchObject({
        nodes: [
          { type: 'image', data: { ref: { kind: 'url' }, alt: 'Alt text' }, fragments: [{ fragment: 'caption' }] },
        ],
      });
      expect(d.nodes[1]).toMatchObject({ nodes: [{ data: { ref: { kind: 'file', file: 'abc' } } }, {}] });
    },
  ],
  links: [
    '[web](https://example.com) [page](/pages/p1) [anchor](#top) [there](/pages/p2#part) [file](/files/f1)\n',
    (d) =>
      expect(extractLinks(d).map((l) => l.ref)).toEqual([
        { kind: 'url', url: 'https://example.com' },
        { kind: 'page', page: 'p1' },
        { kind: 'anchor', anchor: 'top' },
        { kind: 'anchor', anchor: 'part', page: 'p2' },
        { kind: 'file', file: 'f1' },
      ]),
  ],
  hints: [
    '{% hint style="info" %}\nInfo with **bold**.\n\n- a list\n{% endhint %}\n\n{% hint style="danger" %}\nDanger\n{% endhint %}\n',
    (d) => {
      expect(d.nodes.map((n) => [n.type, (n as { data?: { style?: string } }).data?.style])).toEqual([
        ['hint', 'info'],
        ['hint', 'danger'],
      ]);
      expect((d.nodes[0] as { nodes: Block[] }).nodes.map((n) => n.type)).toEqual(['paragraph', 'list-unordered']);
    },
  ],
  'tabs and embeds': [
    '{% tabs %}\n{% tab title="npm" %}\n```sh\nnpm install\n```\n{% endtab %}\n\n{% tab title="Say &quot;hi&quot;" %}\nA *tab* with a [link](https://example.com).\n\n{% hint style="success" %}\nDone\n{% endhint %}\n{% endtab %}\n{% endtabs %}\n\n{% embed url="https://www.youtube.com/watch?v=abc" %}\n',
    (d) => {
      expect(d.nodes.map((n) => n.type)).toEqual(['tabs', 'embed']);
      const tabs = d.nodes[0] as { nodes: Array<{ type: string; data: { title: string }; nodes: Block[] }> };
      expect(tabs.nodes.map((t) => [t.type, t.data.title, t.nodes.map((n) => n.type)])).toEqual([
        ['tabs-item', 'npm', ['code']],
        ['tabs-item', 'Say "hi"', ['paragraph', 'hint']],
      ]);
      expect((d.nodes[1] as { data: { url: string } }).data.url).toBe('https://www.youtube.com/watch?v=abc');
      expect(extractLinks(d).map((l) => l.ref)).toEqual([{ kind: 'url', url: 'https://example.com' }]);
    },
  ],
  'line breaks and dividers': [
    'Line one\\\nline two\n\n---\n\nAfter\n',
    (d) => expect(d.nodes[1]!.type).toBe('divider'),
  ],
};

describe('GitBook block tags', () => {
  it('keeps a fenced tag as code, an unclosed tag as text, and drops an embed caption close', () => {
    const fenced = markdownToDocument('```\n{% tabs %}\n{% endtabs %}\n```\n');
    expect(fenced.nodes.map((n) => n.type)).toEqual(['code']);
    expect(markdownToDocument('{% tabs %}\nNo end').nodes.map((n) => n.type)).toEqual(['paragraph']);
    const captioned = markdownToDocument('{% embed url="https://example.com/v" %}\nA caption\n{% endembed %}\n');
    expect(captioned.nodes.map((n) => n.type)).toEqual(['embed', 'paragraph']);
    expect(documentToMarkdown(captioned)).toBe('{% embed url="https://example.com/v" %}\n\nA caption\n');
  });
});

describe('document ⇄ Markdown', () => {
  for (const [name, [markdown, check]] of Object.entries(CONSTRUCTS)) {
    it(`round-trips ${name}`, () => check(roundTrip(markdown)));
  }

  it('round-trips every construct in one document', () => {
    roundTrip(
      Object.values(CONSTRUCTS)
        .map(([markdown]) => markdown)
        .join('\n'),
    );
  });

  it('writes a hand-built document and reads it back identically', () => {
    const document = doc(
      { object: 'block', type: 'heading-2', data: {}, nodes: [text('Title')] },
      p(
        {
          object: 'text',
          leaves: [...text('plain ').leaves, ...text('bold', ['bold']).leaves, ...text(' and ').leaves],
        },
        {
          object: 'inline',
          type: 'link',
          isVoid: false,
          data: { ref: { kind: 'page', page: 'abc' } },
          nodes: [text('a link')],
        },
      ),
      {
        object: 'block',
        type: 'hint',
        data: { style: 'warning' },
        nodes: [p(text('careful'))],
      },
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [{ object: 'block', type: 'list-item', nodes: [p(text('x'))] }],
      },
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [{ object: 'block', type: 'list-item', nodes: [p(text('y'))] }],
      },
    );
    const markdown = documentToMarkdown(document);
    expect(markdown).toContain('{% hint style="warning" %}');
    expect(markdown).toContain('[a link](/pages/abc)');
    expect(markdown).toContain('## Title');
    expect(markdownToDocument(markdown)).toEqual(document);
  });

  it('keeps hint markers inside code blocks as code, and lifts code out of quotes', () => {
    const d = roundTrip('```\n{% hint style="info" %}\n{% endhint %}\n```\n');
    expect(d.nodes.map((n) => n.type)).toEqual(['code']);
    const lifted = markdownToDocument('> before\n>\n> ```\n> code\n> ```\n>\n> after\n');
    expect(lifted.nodes.map((n) => n.type)).toEqual(['blockquote', 'code', 'blockquote']);
  });

  it('keeps the text of script links, not the link', () => {
    const d = markdownToDocument('[click](javascript:alert(1)) and [ok](https://x.test)');
    expect(extractLinks(d).map((l) => l.ref)).toEqual([{ kind: 'url', url: 'https://x.test' }]);
    expect(documentToMarkdown(d)).toBe('click and [ok](https://x.test)\n');
  });

  it('reads front matter', () => {
    expect(splitFrontmatter('---\ntitle: "Hello"\ndescription: A page\n---\n# Body\n')).toEqual({
      meta: { title: 'Hello', description: 'A page' },
      body: '# Body\n',
    });
  });
  it('reads {% include %} as a reusable content block, resolved or kept as written', () => {
    const stable = roundTrip('Before.\n\n{% include "/reusable-contents/snip_1" %}\n\nAfter.\n');
    expect(stable.nodes[1]).toEqual({
      object: 'block',
      type: 'reusable-content',
      isVoid: true,
      data: { ref: { kind: 'reusable-content', reusableContent: 'snip_1' } },
    });
    // A relative path resolves through the caller (Git import); single quotes are GitBook's too.
    const resolveUrl = (url: string) =>
      url === '../.gitbook/includes/a.md' ? { kind: 'reusable-content' as const, reusableContent: 'a' } : null;
    const relative = markdownToDocument("{% include '../.gitbook/includes/a.md' %}\n", { resolveUrl });
    expect(relative.nodes[0]).toMatchObject({ type: 'reusable-content', data: { ref: { reusableContent: 'a' } } });
    expect(documentToMarkdown(relative, { refUrl: () => '../.gitbook/includes/a.md' })).toBe(
      '{% include "../.gitbook/includes/a.md" %}\n',
    );
    // Nothing to resolve to: the tag stays text; in fenced code it is code.
    const unknown = markdownToDocument('{% include "missing.md" %}\n');
    expect(unknown.nodes[0]?.type).toBe('paragraph');
    expect(documentToMarkdown(unknown)).toContain('include "missing.md"');
    expect(markdownToDocument('```\n{% include "/reusable-contents/x" %}\n```\n').nodes[0]?.type).toBe('code');
    // An include is not a link.
    expect(extractLinks(stable)).toEqual([]);
  });
});
