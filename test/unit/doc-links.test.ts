/**
 * Every relative link of README.md and docs/ leads somewhere: the file or folder exists and, when
 * the link names an #anchor, the Markdown file has a heading with that slug, as GitHub writes
 * heading slugs. Links to other sites are not followed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The text outside fenced code blocks, line by line (lines inside them are left empty). */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** GitHub's slug of a heading: its text lower-cased, punctuation dropped, spaces made hyphens. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/<[^>]+>/g, ''); // inline HTML
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file's headings give, duplicates numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a Markdown text: inline links and images, outside code. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      targets.push(match[1] as string);
    }
  }
  return targets;
}

/** What is wrong with the relative links of `file` (its path relative to the root), if anything. */
function brokenLinks(file: string, read: (file: string) => string | null): string[] {
  const markdown = read(file);
  if (markdown === null) return [`${file}: cannot be read`];
  const broken: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // another site (https:, mailto:)
    const [pathPart = '', anchor] = target.split('#', 2);
    const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
    const text = resolved === file ? markdown : read(resolved.replace(/\/$/, ''));
    if (text === null) {
      broken.push(`${file}: ${target} (no such file or folder)`);
      continue;
    }
    if (anchor !== undefined && !anchorsOf(text).has(decodeURIComponent(anchor))) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

/** A file's text, '' for a folder (it has no anchors), null when there is nothing at that path. */
function readFromDisk(relative: string): string | null {
  const full = path.join(root, relative);
  if (!existsSync(full)) return null;
  try {
    return readFileSync(full, 'utf8');
  } catch {
    return ''; // a folder
  }
}

describe('links of README.md and docs/', () => {
  const files = ['README.md', ...markdownFiles(path.join(root, 'docs')).map((f) => path.relative(root, f))];

  it('lead to files and headings that exist', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((file) => brokenLinks(file, readFromDisk))).toEqual([]);
  });

  it('are checked: a missing file, a missing heading and a link to a heading that exists', () => {
    const pages: Record<string, string> = {
      'README.md': '# Top\n\nSee [ops](docs/ops.md#the-cli) and [gone](docs/gone.md), [here](#top).\n',
      'docs/ops.md': '# Operating\n\n## The CLI\n\n[Back](../README.md#nowhere) `[not a link](nope.md)`\n',
    };
    const read = (file: string) => pages[file] ?? null;
    expect(brokenLinks('README.md', read)).toEqual(['README.md: docs/gone.md (no such file or folder)']);
    expect(brokenLinks('docs/ops.md', read)).toEqual([
      'docs/ops.md: ../README.md#nowhere (no heading #nowhere in README.md)',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Configuration (environment)')).toBe('configuration-environment');
    expect(githubSlug("A request's path")).toBe('a-requests-path');
    expect(githubSlug('Events, webhooks and the audit log')).toBe('events-webhooks-and-the-audit-log');
    expect(githubSlug('`bindery` and its `--flags`')).toBe('bindery-and-its---flags');
    expect([...anchorsOf('## Notes\n\n## Notes\n\n```\n# not a heading\n```\n')]).toEqual(['notes', 'notes-1']);
  });
});
