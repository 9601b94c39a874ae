/**
 * The paths an export writes (the Git Sync layout, in a commit or in `export.zip`) are made from
 * names users chose: page slugs, file names, the project directory. Whoever extracts or checks out
 * the result must get files where the layout says, and nowhere else: every path is relative, made of
 * segments that are neither `.` nor `..`, without slashes or backslashes inside a segment, control
 * or direction-changing characters, or characters Windows refuses in file names; and no two files
 * share a path (compared case-insensitively, as macOS and Windows do), nor a file a directory's.
 */
import { posix } from 'node:path';

/** Control characters, invisible direction changes, separators and what Windows refuses in names. */
const UNSAFE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069/\\<>:"|?*]/gu;
/** Longest segment kept, in characters (file systems allow 255 bytes; room for a suffix). */
const MAX_SEGMENT = 200;

/** `raw` as one path segment that names nothing but itself; `fallback` when nothing is left of it. */
export function safeSegment(raw: string, fallback: string): string {
  const cleaned = raw
    .normalize('NFC')
    .replace(UNSAFE, '-')
    .trim()
    // Windows drops trailing dots and spaces (`..` then names the parent, `a.` the file `a`).
    .replace(/[. ]+$/, '');
  if (cleaned === '') return fallback;
  if (cleaned.length <= MAX_SEGMENT) return cleaned;
  const ext = posix.extname(cleaned).slice(0, 20);
  return cleaned.slice(0, MAX_SEGMENT - ext.length) + ext;
}

/** A relative folder (e.g. a project directory) with every segment made safe; '' for the top. */
export function safeDirectory(raw: string): string {
  return raw
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .map((segment) => safeSegment(segment, '_'))
    .join('/');
}

/** The `n`th other name for `name` (n ≥ 1): `name-2`, `name-3`, … */
export const numbered = (name: string, n: number) => `${name}-${n + 1}`;

/**
 * Paths handed out once each: a path already given (as a file or as a directory) gets the first of
 * its variants that is free. Names given to it are already safe segments.
 */
export class ExportPaths {
  private readonly files = new Set<string>();
  private readonly directories = new Set<string>();

  private free(path: string): boolean {
    const key = path.toLowerCase();
    return !this.files.has(key) && !this.directories.has(key);
  }

  private takeParents(path: string): void {
    const parts = path.toLowerCase().split('/');
    for (let i = 1; i < parts.length; i++) this.directories.add(parts.slice(0, i).join('/'));
  }

  /** A file named `name` (`stem` + `ext`) under `parent`; variants rename the stem. */
  file(parent: string, name: string, variant: (stem: string, n: number) => string = numbered): string {
    const ext = posix.extname(name);
    const stem = name.slice(0, name.length - ext.length) || name;
    let path = parent ? `${parent}/${name}` : name;
    for (let n = 1; !this.free(path) || this.underFile(path); n++) {
      const other = `${variant(stem, n)}${stem === name ? '' : ext}`;
      path = parent ? `${parent}/${other}` : other;
    }
    this.files.add(path.toLowerCase());
    this.takeParents(path);
    return path;
  }

  /** A directory named `name` under `parent`, of its own (not one some other file is already in). */
  directory(parent: string, name: string): string {
    let path = parent ? `${parent}/${name}` : name;
    for (let n = 1; !this.free(path) || this.underFile(path); n++) {
      path = parent ? `${parent}/${numbered(name, n)}` : numbered(name, n);
    }
    this.directories.add(path.toLowerCase());
    this.takeParents(path);
    return path;
  }

  /** Whether a folder of `path` is already a file. */
  private underFile(path: string): boolean {
    const parts = path.toLowerCase().split('/');
    for (let i = 1; i < parts.length; i++) if (this.files.has(parts.slice(0, i).join('/'))) return true;
    return false;
  }
}
