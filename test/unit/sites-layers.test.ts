/**
 * The layers of the sites family, checked on the source: `src/sites` (the site model) knows nothing of
 * the API; `src/api/sites/shared` knows no sub-area; each sub-area (the Site itself at the folder's top,
 * and every other folder) imports only itself, `shared` and what lies below; route files export
 * nothing but their plugin.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const sitesModel = path.join(root, 'src/sites');
const sitesApi = path.join(root, 'src/api/sites');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The files a source file imports (relative imports only), as absolute `.ts` paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1] as string);
  return specifiers.map((s) => path.resolve(path.dirname(file), s).replace(/\.js$/, '.ts'));
}

/** The unit of a file of `src/api/sites`: `shared`, a sub-area folder, or `.` (the Site itself). */
function unitOf(file: string): string {
  const rel = path.relative(sitesApi, file);
  return rel.includes(path.sep) ? (rel.split(path.sep)[0] as string) : '.';
}

const inside = (file: string, dir: string) => !path.relative(dir, file).startsWith('..');
const rel = (file: string) => path.relative(root, file);

describe('sites layers', () => {
  it('src/sites imports nothing from the API', () => {
    const bad = filesUnder(sitesModel).flatMap((file) =>
      importsOf(file)
        .filter((target) => inside(target, path.join(root, 'src/api')))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(bad).toEqual([]);
  });

  it('a sub-area imports only itself and shared; shared imports no sub-area', () => {
    const bad = filesUnder(sitesApi).flatMap((file) => {
      const unit = unitOf(file);
      return importsOf(file)
        .filter((target) => inside(target, sitesApi))
        .filter((target) => {
          const other = unitOf(target);
          return other !== unit && !(other === 'shared' && unit !== 'shared');
        })
        .map((target) => `${rel(file)} -> ${rel(target)}`);
    });
    expect(bad).toEqual([]);
  });

  it('route files export nothing but their plugin', () => {
    const bad = filesUnder(sitesApi)
      .filter((file) => /(^|-)routes\.ts$/.test(path.basename(file)))
      .flatMap((file) => {
        const exports = [...readFileSync(file, 'utf8').matchAll(/^export\s+(?!default\s)(.*)$/gm)];
        return exports.map((m) => `${rel(file)}: export ${m[1]}`);
      });
    expect(bad).toEqual([]);
  });

  it('every unit is seen by the checks above', () => {
    // Guards the checks against a layout change that would leave them reading nothing.
    const units = new Set(filesUnder(sitesApi).map(unitOf));
    expect([...units].sort()).toEqual(
      [
        '.',
        'adaptive',
        'ads',
        'customization',
        'hostnames',
        'insights',
        'permissions',
        'redirects',
        'sections',
        'share-links',
        'shared',
        'spaces',
        'structure',
      ].sort(),
    );
    expect(filesUnder(sitesModel).length).toBeGreaterThan(5);
  });
});
