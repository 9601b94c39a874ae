/**
 * The page body editor (app/src/features/editor/Editor.tsx, the one the editing screen holds) in a
 * real browser, bundled on its own with Vite, it shows a rich document as an accessible multiline textbox, typing changes
 * the document (every other block, atoms included, written back as read), undo gives back the
 * document as read, and the editor's HTML
 * (what copy and paste carry) parses back to the same document.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/markdown.js';
import { documentToEditor, type EditorNode, editorToDocument } from '../../src/document-model/index.js';
import { browserMissing, checkAccessibility, collectConsoleErrors, launchBrowser } from '../helpers/browser.js';
import { documentArbitrary } from '../helpers/document-arbitraries.js';

const ROOT = resolve(import.meta.dirname, '../..');

// Mounts the editor and exposes its latest document and the HTML round trip to the test.
const ENTRY = `
import { generateHTML } from '@tiptap/core';
import { DOMParser as SchemaParser } from '@tiptap/pm/model';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Editor } from '${ROOT}/app/src/features/editor/Editor.tsx';
import * as model from '${ROOT}/app/src/features/editor/model.ts';
import { documentSchema, documentToEditor, editorToDocument, extensions } from '${ROOT}/src/document-model/index.ts';
const w = window;
// As a copy inside the editor is pasted: its HTML parsed with its whitespace kept.
w.htmlRoundTrip = (doc) => {
  const element = document.createElement('div');
  element.innerHTML = generateHTML(documentToEditor(doc), extensions);
  const parsed = SchemaParser.fromSchema(documentSchema()).parse(element, { preserveWhitespace: 'full' });
  return editorToDocument(parsed.toJSON());
};
createRoot(document.getElementById('root')).render(
  createElement(Editor, {
    initial: model.documentToEditor(w.DOC),
    onChange: () => {},
    onReady: (editor) => editor.on('update', () => { w.LAST = model.editorToDocument(editor.getJSON()); }),
  }),
);
`;

const MARKDOWN = [
  '# Guide',
  '',
  'Some **bold** and [a link](https://example.com) here.',
  '',
  '- one',
  '- [two](https://example.com/two)',
  '',
  '```js',
  'const a = 1;',
  '```',
  '',
  '{% hint style="warning" %}',
  'Careful',
  '{% endhint %}',
  '',
  '| a | b |',
  '| - | - |',
  '| 1 | 2 |',
].join('\n');

function richDocument(): { object: 'document'; data: object; nodes: unknown[] } {
  const document = markdownToDocument(MARKDOWN) as unknown as { object: 'document'; data: object; nodes: unknown[] };
  const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
  document.nodes.push(
    { object: 'block', type: 'future-block', key: 'f1', data: { any: ['thing'] } },
    {
      object: 'block',
      type: 'paragraph',
      nodes: [
        text('Ask '),
        { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } },
        text(' about '),
        { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } },
      ],
    },
    {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: {},
      fragments: [
        {
          object: 'fragment',
          fragment: 'expandable-title',
          type: 'expandable-title',
          nodes: [{ object: 'block', type: 'paragraph', nodes: [text('More')] }],
        },
        {
          object: 'fragment',
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Inside')] }],
        },
      ],
    },
  );
  return document;
}

describe.skipIf(browserMissing)('the page body editor in a browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let bundle: string;
  const document = richDocument();

  beforeAll(async () => {
    // Inside the project (test-output/ is not committed), where the entry's packages resolve.
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'test-output', 'editor-'));
    // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development JSX runtime.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      writeFileSync(join(dir, 'entry.tsx'), ENTRY);
      await build({
        configFile: false,
        logLevel: 'silent',
        root: dir,
        plugins: [react()],
        // A library build leaves process.env.NODE_ENV in place: React reads it.
        define: { 'process.env.NODE_ENV': '"production"' },
        build: {
          outDir: join(dir, 'dist'),
          lib: { entry: join(dir, 'entry.tsx'), formats: ['iife'], name: 'EditorTest', fileName: 'editor' },
        },
      });
      bundle = readFileSync(join(dir, 'dist', 'editor.iife.js'), 'utf8');
    } finally {
      process.env.NODE_ENV = nodeEnv;
      rmSync(dir, { recursive: true, force: true });
    }
    browser = (await launchBrowser()) as Browser;
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    errors = collectConsoleErrors(page);
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Editor</title></head><body><main><h1>Page</h1><div id="root"></div></main><script>window.DOC=${JSON.stringify(document)}</script></body></html>`,
    );
    await page.addScriptTag({ content: bundle });
  });
  afterAll(async () => browser?.close());

  it('edits a document as a textbox named "Page content", keeping every other block as read', async () => {
    const box = page.getByRole('textbox', { name: 'Page content' });
    await box.waitFor();
    expect(await box.getAttribute('aria-multiline')).toBe('true');
    expect(await checkAccessibility(page)).toEqual([]);

    await page.getByText('here.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Typed.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('A new paragraph');
    const edited = (await page.evaluate(() => (window as unknown as { LAST: unknown }).LAST)) as typeof document;
    expect(edited.nodes[1]).toEqual({
      object: 'block',
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [
            { object: 'leaf', text: 'Some ', marks: [] },
            { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] },
            { object: 'leaf', text: ' and ', marks: [] },
          ],
        },
        {
          object: 'inline',
          type: 'link',
          isVoid: false,
          data: { ref: { kind: 'url', url: 'https://example.com' } },
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'a link', marks: [] }] }],
        },
        { object: 'text', leaves: [{ object: 'leaf', text: ' here. Typed.', marks: [] }] },
      ],
    });
    expect(edited.nodes[2]).toEqual({
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'A new paragraph', marks: [] }] }],
    });
    expect(edited.nodes.slice(3)).toEqual(document.nodes.slice(2));
    expect(edited.nodes[0]).toEqual(document.nodes[0]);

    // Undone (typing may have made several steps on a busy machine), it is the document as read.
    for (let step = 0; step < 10; step++) await page.keyboard.press('Control+z');
    expect(await page.evaluate(() => (window as unknown as { LAST: unknown }).LAST)).toEqual(document);
    expect(errors).toEqual([]);
  });

  it("parses the editor's HTML back to the same document (what copy and paste carry)", async () => {
    const back = await page.evaluate(
      (doc) => (window as unknown as { htmlRoundTrip(d: unknown): unknown }).htmlRoundTrip(doc),
      document,
    );
    expect(back).toEqual(document);
    expect(errors).toEqual([]);
  });

  it('parses the HTML of documents of the official format back to them, in the canonical spelling', async () => {
    // The HTML does not carry a textblock's inlines as read (inlineSource): expect the canonical spelling.
    const canonical = (doc: unknown) => {
      const strip = (node: EditorNode): EditorNode => ({
        ...node,
        ...(node.attrs && 'inlineSource' in node.attrs ? { attrs: { ...node.attrs, inlineSource: null } } : {}),
        ...(node.content ? { content: node.content.map(strip) } : {}),
      });
      return editorToDocument(strip(documentToEditor(doc)));
    };
    const samples = fc.sample(documentArbitrary, { seed: 7, numRuns: 60 });
    const back = await page.evaluate(
      (docs) => docs.map((doc) => (window as unknown as { htmlRoundTrip(d: unknown): unknown }).htmlRoundTrip(doc)),
      samples,
    );
    // The document's own properties are not in its HTML (a paste is blocks): compare the blocks.
    for (const [i, sample] of samples.entries()) {
      expect((back[i] as { nodes: unknown }).nodes, `sample ${i}`).toEqual(canonical(sample).nodes);
    }
    expect(errors).toEqual([]);
  });
});
