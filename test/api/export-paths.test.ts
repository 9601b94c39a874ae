/**
 * Every path an export writes (the Git Sync layout, in a commit or in export.zip) is a safe relative
 * path, whatever the page slugs and file names: no `..`, nothing absolute, no backslash or control
 * character, and no two files on one path (case-insensitively), so extracting it writes where the
 * layout says and nothing is silently overwritten.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportPaths, safeDirectory, safeSegment } from '../../src/git/export-paths.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import { edit } from '../helpers/published.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h?.close());

/** What a careful extractor accepts: relative, `/`-separated, no `.`/`..`, no control or separator characters. */
function expectSafe(path: string) {
  expect(path, path).not.toMatch(/^\//);
  expect(path, path).not.toMatch(/^[A-Za-z]:/);
  expect(path, path).not.toContain('\\');
  expect(path, path).not.toMatch(/\p{Cc}/u);
  for (const segment of path.split('/')) {
    expect(segment, path).not.toBe('');
    expect(segment, path).not.toBe('.');
    expect(segment, path).not.toBe('..');
    expect(segment, path).not.toMatch(/[. ]$/);
  }
}

const HOSTILE_FILES = [
  '../../../etc/cron.d/evil',
  '..',
  '.',
  '..\\..\\windows\\evil.png',
  '/absolute.png',
  'C:\\evil.png',
  'bell\u0007\nnewline.png',
  'rtl\u202egnp.exe',
  'logo.png',
  'LOGO.png',
  'logo.png',
  'trailing. ',
];
const HOSTILE_SLUGS = ['..', '.', '..\\..\\up', 'SUMMARY', 'summary', 'ctrl\u0001x', 'COLLIDE', 'collide'];

describe('export paths', () => {
  it('export.zip of hostile file names and slugs: every entry safe, none lost to another', async () => {
    const ctx = await h.space();
    const ids = await edit(ctx.admin.client, ctx.spaceId, [
      () => [
        {
          operation: 'insert_files',
          files: HOSTILE_FILES.map((name, i) => ({
            ref: `f${i}`,
            name,
            contentType: 'image/png',
            base64: Buffer.concat([PNG, Buffer.from([i])]).toString('base64'),
          })),
        },
        ...HOSTILE_SLUGS.map((slug, i) => ({
          operation: 'insert_page',
          ref: `p${i}`,
          title: `Page ${i}`,
          slug,
          document: { markdown: `Body ${i}.` },
        })),
        { operation: 'insert_page', ref: 'parent', title: 'Parent', slug: '...', document: { markdown: 'Parent.' } },
      ],
      (made) => [
        // A subpage named README would be its parent's file; `.gitbook` would be the assets' folder.
        {
          operation: 'insert_page',
          into: made.parent,
          title: 'Child',
          slug: 'README',
          document: { markdown: 'Child.' },
        },
        { operation: 'insert_page', into: made.parent, title: 'Deep', slug: '..', document: { markdown: 'Deep.' } },
      ],
    ]);
    expect(Object.keys(ids).length).toBeGreaterThan(0);
    const raw = await h.app.inject({
      url: `/v1/spaces/${ctx.spaceId}/export.zip`,
      headers: { authorization: `Bearer ${ctx.admin.token}` },
    });
    expect(raw.statusCode).toBe(200);
    const entries = unzipSync(new Uint8Array(raw.rawPayload));
    const paths = Object.keys(entries);
    for (const path of paths) expectSafe(path);
    // One entry per page and file, plus SUMMARY.md and .gitbook.yaml: nothing overwritten.
    const pages = HOSTILE_SLUGS.length + 3;
    expect(paths).toHaveLength(pages + HOSTILE_FILES.length + 2);
    expect(new Set(paths.map((p) => p.toLowerCase())).size).toBe(paths.length);
    const assets = paths.filter((p) => p.startsWith('.gitbook/assets/'));
    expect(assets).toHaveLength(HOSTILE_FILES.length);
    // Each file's own bytes (its last byte is its index), each under its own name.
    const lastBytes = assets.map((p) => (entries[p] as Uint8Array).at(-1)).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(lastBytes).toEqual(HOSTILE_FILES.map((_, i) => i));
    expect(assets).toContain('.gitbook/assets/logo.png');
    expect(assets).toContain('.gitbook/assets/LOGO (1).png');
    expect(assets).toContain('.gitbook/assets/logo (2).png');
    // The table of contents is Bindery's, not the page slugged SUMMARY, and links every page's file.
    const summary = strFromU8(entries['SUMMARY.md'] as Uint8Array);
    expect(summary.startsWith('# Table of contents')).toBe(true);
    const bodies = paths
      .filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md')
      .map((p) => strFromU8(entries[p] as Uint8Array));
    for (let i = 0; i < HOSTILE_SLUGS.length; i++)
      expect(
        bodies.some((b) => b.includes(`Body ${i}.`)),
        `page ${i}`,
      ).toBe(true);
    for (const text of ['Parent.', 'Child.', 'Deep.'])
      expect(
        bodies.some((b) => b.includes(text)),
        text,
      ).toBe(true);
  });
});

describe('safe segments and paths', () => {
  it('makes any name one harmless segment', () => {
    expect(safeSegment('..', 'x')).toBe('x');
    expect(safeSegment('.', 'x')).toBe('x');
    expect(safeSegment('', 'x')).toBe('x');
    expect(safeSegment('../../etc/passwd', 'x')).toBe('..-..-etc-passwd');
    expect(safeSegment('a\\b', 'x')).toBe('a-b');
    expect(safeSegment('C:evil', 'x')).toBe('C-evil');
    expect(safeSegment('a\u0000b\u001bc\u0085d', 'x')).toBe('a-b-c-d');
    expect(safeSegment('name\u202eexe.png', 'x')).toBe('name-exe.png');
    expect(safeSegment('dots... ', 'x')).toBe('dots');
    expect(safeSegment('ok name.png', 'x')).toBe('ok name.png');
    expect(safeSegment(`${'a'.repeat(300)}.png`, 'x')).toBe(`${'a'.repeat(196)}.png`);
  });

  it('keeps a project directory inside the export', () => {
    expect(safeDirectory('../../outside')).toBe('outside');
    expect(safeDirectory('/docs/./v1/')).toBe('docs/v1');
    expect(safeDirectory('a\\..\\..\\b')).toBe('a/b');
    expect(safeDirectory('')).toBe('');
  });

  it('gives each path once: files, folders and names equal but for case', () => {
    const paths = new ExportPaths();
    expect(paths.file('', 'SUMMARY.md')).toBe('SUMMARY.md');
    expect(paths.file('', 'summary.md')).toBe('summary-2.md');
    expect(paths.directory('', 'guide')).toBe('guide');
    expect(paths.directory('', 'Guide')).toBe('Guide-2');
    expect(paths.file('guide', 'README.md')).toBe('guide/README.md');
    expect(paths.file('guide', 'readme.md')).toBe('guide/readme-2.md');
    expect(paths.file('', 'a')).toBe('a');
    expect(paths.directory('', 'a')).toBe('a-2'); // a folder cannot share a file's name
    expect(paths.file('x', 'n.png', (stem, n) => `${stem} (${n})`)).toBe('x/n.png');
    expect(paths.file('x', 'N.png', (stem, n) => `${stem} (${n})`)).toBe('x/N (1).png');
  });
});
