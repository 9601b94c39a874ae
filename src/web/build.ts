/**
 * The web app's build (app/ → app/dist, by Vite). `npm install` builds it (`prepare`); `bindery serve`
 * and the tests build it again when it is missing or older than its sources, as bin/bindery.js
 * does for the server's code. A production install ships app/dist and has no Vite: it serves what is there.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const APP_ROOT = path.resolve(import.meta.dirname, '..', '..', 'app');
export const APP_DIST = path.join(APP_ROOT, 'dist');

function newest(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Whether app/dist is missing or older than a source of the app (false without sources: a production install). */
export function appBuildStale(): boolean {
  const sources = ['src', 'index.html', 'vite.config.ts'].map((name) => path.join(APP_ROOT, name));
  if (!existsSync(sources[0] as string)) return false;
  const built = path.join(APP_DIST, 'index.html');
  if (!existsSync(built)) return true;
  return Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
}

/**
 * Builds the app (a production build) when stale, or always with `force`; false (and a message) when
 * it needs building but Vite is not installed.
 */
export async function ensureAppBuilt(
  log: (message: string) => void = () => {},
  options: { force?: boolean } = {},
): Promise<boolean> {
  if (!options.force && !appBuildStale()) return true;
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    log('the web app is not built and Vite is not installed: run `npm run build:app` where it is');
    return false;
  }
  log('building the web app (app/ → app/dist)…');
  // Vite and the React plugin build for NODE_ENV when it is set: under the tests (NODE_ENV=test)
  // that was React's development build, 55 % more JavaScript, left in app/dist for `bindery serve`.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await vite.build({ configFile: path.join(APP_ROOT, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return true;
}
