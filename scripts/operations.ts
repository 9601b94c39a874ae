/**
 * The operation table of docs/operations.md: every operation of the API (operationId, method, path) and the
 * source file that declares it. The operations come from the app itself (its OpenAPI document, built
 * from the routes as registered); the file is the one on the stack when the route was declared (an
 * `onRoute` hook). {@link unwrittenOperationIds} lists the operationIds that no source file writes
 * as a literal (assembled at run time in a loop), which a search of the code cannot find.
 *
 *   npm run operations           rewrite the table in docs/operations.md
 *   npm run operations -- --check exit 1 when that table is stale
 *   npm run operations -- --missing  also list the official operations not served
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const root = path.resolve(import.meta.dirname, '..');
/** The page that holds the table, between the markers. */
export const OPERATIONS_PAGE = path.join(root, 'docs', 'operations.md');
export const START = '<!-- operations:start -->';
export const END = '<!-- operations:end -->';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The operationIds written as a string literal somewhere under src/. */
function literalOperationIds(): Set<string> {
  const ids = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    // Written out as a string literal (in a route's `operationId:`, or a table of them that a route
    // reads), so that searching the code for an operationId finds where it is declared.
    for (const match of readFileSync(file, 'utf8').matchAll(/'([A-Za-z][A-Za-z0-9]*)'/g)) ids.add(match[1] as string);
  }
  return ids;
}

interface Operation {
  id: string;
  method: string;
  path: string;
  file: string;
}

/** The first frame of a stack that lies in a source file of the API (not the app, not a library). */
function declaringFile(stack: string): string {
  for (const line of stack.split('\n').slice(1)) {
    const match = /(?:\(|at )(?:file:\/\/)?([^():]+\.ts):\d+:\d+\)?$/.exec(line.trim());
    if (!match) continue;
    const rel = path.relative(root, match[1] as string).split(path.sep).join('/');
    if (rel.startsWith('src/') && rel !== 'src/app.ts') return rel;
  }
  return '?';
}

/** Every operation of the app, sorted by path then method. */
export async function listOperations(): Promise<Operation[]> {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' }), databaseUrl: ':memory:' };
  const declaredIn = new Map<string, string>();
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const app = await buildApp({
    config: { ...config, jobConcurrency: 0 },
    logger: false,
    onRoute: (route) => {
      const id = (route.schema as { operationId?: string } | undefined)?.operationId;
      if (id) declaredIn.set(id, declaringFile(new Error().stack ?? ''));
    },
  });
  Error.stackTraceLimit = previousLimit;
  try {
    await app.ready();
    const doc = app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const operations: Operation[] = [];
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!METHODS.includes(method)) continue;
        const id = operation.operationId;
        if (!id) throw new Error(`${method.toUpperCase()} ${route} has no operationId`);
        operations.push({ id, method: method.toUpperCase(), path: route, file: declaredIn.get(id) ?? '?' });
      }
    }
    return operations.sort(
      (a, b) =>
        a.path.localeCompare(b.path) ||
        METHODS.indexOf(a.method.toLowerCase()) - METHODS.indexOf(b.method.toLowerCase()),
    );
  } finally {
    await app.close();
  }
}

/** The operationIds that no file under src/ writes as a literal, sorted. */
export function unwrittenOperationIds(operations: Operation[]): string[] {
  const literal = literalOperationIds();
  return operations
    .map((o) => o.id)
    .filter((id) => !literal.has(id))
    .sort();
}

/** The official document's operations (method and path, parameter names ignored), from the official client. */
export function officialOperations(): { id: string; key: string }[] {
  const specPath = path.join(root, 'node_modules', '@gitbook', 'api', 'spec', 'openapi.json');
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.entries(spec.paths).flatMap(([route, methods]) =>
    Object.entries(methods)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ id: operation.operationId ?? '?', key: operationKey(method, `/v1${route}`) })),
  );
}

/** `GET /v1/spaces/{}`: a method and path with the names of its parameters left out. */
function operationKey(method: string, route: string): string {
  return `${method.toUpperCase()} ${route.replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '')}`;
}

/** How many of the official operations the app serves, by method and path. */
export function officialCoverage(operations: Operation[]): { served: number; total: number; missing: string[] } {
  const ours = new Set(operations.map((o) => operationKey(o.method, o.path)));
  const official = officialOperations();
  const missing = official.filter((o) => !ours.has(o.key)).map((o) => o.id);
  return { served: official.length - missing.length, total: official.length, missing: missing.sort() };
}

/** The Markdown table of the operations. */
export function operationsTable(operations: Operation[]): string {
  const coverage = officialCoverage(operations);
  return [
    `${operations.length} operations, serving ${coverage.served} of the official document's ${coverage.total} (by method and path).`,
    '',
    '| operationId | method | path | file |',
    '|---|---|---|---|',
    ...operations.map((o) => `| \`${o.id}\` | ${o.method} | \`${o.path}\` | ${o.file} |`),
  ].join('\n');
}

/** `page` with the text between the markers replaced by `table`. */
export function withTable(page: string, table: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md lacks the ${START} … ${END} markers`);
  return `${page.slice(0, start + START.length)}\n${table}\n${page.slice(end)}`;
}

async function main() {
  const page = readFileSync(OPERATIONS_PAGE, 'utf8');
  const operations = await listOperations();
  const next = withTable(page, operationsTable(operations));
  const coverage = officialCoverage(operations);
  process.stdout.write(
    `${operations.length} operations; ${coverage.served} of the official ${coverage.total} served (by method and path)\n`,
  );
  if (process.argv.includes('--missing')) process.stdout.write(`not served: ${coverage.missing.join(', ')}\n`);
  if (process.argv.includes('--check')) {
    if (next !== page) {
      process.stderr.write('docs/operations.md: the operation table is stale; run `npm run operations`\n');
      process.exit(1);
    }
    return;
  }
  if (next !== page) writeFileSync(OPERATIONS_PAGE, next);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
