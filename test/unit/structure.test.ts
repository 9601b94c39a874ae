/**
 * The shape of `src`, checked on the source: no import cycle between files (type-only imports count:
 * a cycle of types is still two files that cannot be understood apart), no two folders importing
 * each other (the top-level folders of `src`, each API area of `src/api` counting as a folder, and
 * each file at the top of `src` as one of its own), route files that export only their plugin and
 * that only route plugins import, no file over 400 lines, and no job handler registered or periodic
 * task scheduled anywhere but src/background.ts (so that one file lists everything that runs in the
 * background; a routes plugin doing it was how they got scattered). The import graph comes from the
 * TypeScript compiler's own pre-processor.
 *
 * Each `ALLOWED_*` list holds what stood when the check was written and is owned by another change:
 * it may only shrink. An entry that no longer occurs fails too, so that the list is emptied as the
 * code is fixed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 400;

/** File cycles found when this test was written (each as its files, sorted). */
const ALLOWED_CYCLES: string[] = [];
/** Folders that import each other, found when this test was written (`a <-> b`, sorted). */
const ALLOWED_TWO_WAY: string[] = [];
/** Route files that export more than their plugin, or that a non-route file imports. */
const ALLOWED_ROUTE_USES: string[] = [];
const ALLOWED_LONG: string[] = [];

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [rel(full)] : [];
  });
}

const files = sourceFiles(path.join(root, 'src'));
const known = new Set(files);
const texts = new Map(files.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));

/** Every relative import of every file (static, type-only, re-exports and dynamic `import()`). */
const graph = new Map(
  files.map((file) => {
    const info = ts.preProcessFile(texts.get(file) as string, true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => rel(path.resolve(root, path.dirname(file), s.replace(/\.js$/, '.ts'))))
      .filter((target) => known.has(target));
    return [file, [...new Set(targets)]] as const;
  }),
);

/** Strongly connected components of more than one file (Tarjan). */
function cycles(): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort().join(' '));
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found.sort();
}

/**
 * The folder a file belongs to for the layering rule: its API area under `src/api` (`src/api/<area>`,
 * `src/api/sites/<sub-area>` for the sites family), else its top-level folder of `src`; a file at
 * the top of `src` (app.ts, config.ts, …) is a folder of its own.
 */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 2) return file;
  if (parts[1] === 'api' && parts.length >= 4)
    return parts.slice(0, parts[2] === 'sites' && parts.length > 4 ? 4 : 3).join('/');
  return parts.slice(0, 2).join('/');
}

const isRoutes = (file: string) => /(^|\/|-)routes\.ts$/.test(file);

/** Where `file` calls `<…>jobs.register(…)` or `scheduleHousekeeping(…)`, as `file:line callee`. */
function backgroundRegistrations(file: string): string[] {
  const text = texts.get(file) as string;
  if (!text.includes('jobs') && !text.includes('scheduleHousekeeping')) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (/(^|\.)jobs\.register$/.test(callee) || /(^|\.)scheduleHousekeeping$/.test(callee)) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${callee}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('structure of src', () => {
  it('has no import cycle', () => {
    expect(cycles()).toEqual(ALLOWED_CYCLES);
  });

  it('has no two folders importing each other', () => {
    const edges = new Set<string>();
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const [a, b] = [folderOf(file), folderOf(target)];
        if (a !== b) edges.add(`${a} -> ${b}`);
      }
    }
    const twoWay = [...edges]
      .map((edge) => edge.split(' -> ') as [string, string])
      .filter(([a, b]) => a < b && edges.has(`${b} -> ${a}`))
      .map(([a, b]) => `${a} <-> ${b}`)
      .sort();
    expect(twoWay).toEqual(ALLOWED_TWO_WAY);
  });

  it('has route files that export only their plugin, imported only by route plugins', () => {
    const found: string[] = [];
    for (const file of files.filter((f) => f.startsWith('src/api/') && isRoutes(f))) {
      const named = [...(texts.get(file) as string).matchAll(/^export (?:async )?(?:function|const|class|let) (\w+)/gm)]
        .map((m) => m[1] as string)
        .sort();
      if (named.length > 0) found.push(`${file} exports ${named.join(', ')}`);
    }
    for (const [file, targets] of graph) {
      if (isRoutes(file) || file === 'src/api/index.ts' || file === 'src/app.ts') continue;
      for (const target of targets.filter((t) => t.startsWith('src/api/') && isRoutes(t))) {
        found.push(`${file} imports ${target}`);
      }
    }
    expect(found.sort()).toEqual([...ALLOWED_ROUTE_USES].sort());
  });

  it('registers job handlers and schedules periodic tasks in src/background.ts only, never in a routes file', () => {
    const routes = files.filter((f) => f.startsWith('src/api/') && isRoutes(f));
    expect(routes.flatMap(backgroundRegistrations)).toEqual([]);
    const elsewhere = files.filter((f) => f !== 'src/background.ts').flatMap(backgroundRegistrations);
    expect(elsewhere).toEqual([]);
    // The check finds what it looks for.
    expect(backgroundRegistrations('src/background.ts').length).toBeGreaterThan(0);
  });

  it('has pure pieces in src/lib, which import nothing of src outside it', () => {
    const found: string[] = [];
    for (const [file, targets] of graph) {
      if (!file.startsWith('src/lib/')) continue;
      for (const target of targets) if (!target.startsWith('src/lib/')) found.push(`${file} imports ${target}`);
    }
    expect(found).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files.filter((f) => (texts.get(f) as string).split('\n').length - 1 > MAX_LINES).sort();
    expect(long).toEqual(ALLOWED_LONG);
  });
});
