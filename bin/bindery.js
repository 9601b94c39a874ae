#!/usr/bin/env node
// Runs the compiled build (dist/, made by `npm run build`) when it is there and up to date with src/;
// otherwise, in a development checkout, the TypeScript sources through tsx. A build older than a
// source file is never run where tsx can run the sources instead: tests and `npm start` after an
// edit must not run yesterday's code. A production install (no src/, no tsx) runs dist/ only.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/cli.js`;
const sources = `${root}src`;

/** The newest modification time of a file under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return latest;
}

async function loadTsx() {
  try {
    return await import('tsx/esm/api');
  } catch {
    return null; // a production install (npm ci --omit=dev) has no tsx
  }
}

const hasBuild = existsSync(built);
const stale = hasBuild && newest(sources) > statSync(built).mtimeMs;

if (hasBuild && !stale) {
  process.setSourceMapsEnabled(true);
  await import(built);
} else {
  const tsx = existsSync(sources) ? await loadTsx() : null;
  if (tsx) {
    tsx.register();
    await import('../src/cli.ts');
  } else if (hasBuild) {
    process.stderr.write('bindery: dist/ is older than src/ and tsx is not installed; running dist/ (npm run build)\n');
    process.setSourceMapsEnabled(true);
    await import(built);
  } else {
    process.stderr.write('bindery: no build in dist/ and no tsx to run the sources: run `npm run build` first\n');
    process.exit(1);
  }
}
