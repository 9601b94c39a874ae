/**
 * What the app's first screen will need, announced in its index.html so that the browser fetches it
 * while the app's own script is still loading, instead of one step after another (the script, then
 * the session check, then the screen's chunk, then its data). For a signed-in person: `/auth/status`
 * (every screen waits for it) and, for the editor (`/s/{space}/~/changes/{number}/edit[/{page}]`),
 * its chunk (`modulepreload`) and the requests it makes at once: the space, the change request, its
 * content (the page tree) and the open page.
 *
 * `<link rel="preload" as="fetch" crossorigin>`: the app's `fetch` of the same address (same
 * origin, credentials and headers: app/src/api/client.ts) takes the answer the browser already has.
 * Nothing inline: the Content-Security-Policy stays as strict. Nobody signed in, nothing but the
 * chunk: those requests would only be refused.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One entry of Vite's build manifest (`build.manifest`). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

/** The manifest key of the editor's screen: the chunk the editor route imports. */
const EDITOR_SOURCE = 'src/features/editor/EditorScreen.tsx';

/** The editor's files that index.html does not load already: scripts, then style sheets (under `assets/`). */
export interface EditorFiles {
  scripts: string[];
  styles: string[];
}

/** The editor chunk's files, from Vite's manifest in `dist` (none without a manifest: no hint). */
export function readEditorFiles(dist: string): EditorFiles {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) return { scripts: [], styles: [] };
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const scripts: string[] = [];
  const styles: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    // The entry (and what it imports) is in index.html already.
    if (!chunk || chunk.isEntry || seen.has(key)) return;
    seen.add(key);
    scripts.push(chunk.file);
    styles.push(...(chunk.css ?? []));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(EDITOR_SOURCE);
  return { scripts, styles };
}

const EDITOR_PATH = /^\/s\/([^/]+)\/~\/changes\/([^/]+)\/edit(?:\/([^/]+))?\/?$/;

/** A path segment as the app's router reads it (decoded) and its queries write it (encoded). */
function segment(raw: string): string | null {
  try {
    return encodeURIComponent(decodeURIComponent(raw));
  } catch {
    return null;
  }
}

/** The API requests (paths from the server's root) the screen at `appPath` makes first. */
export function firstRequests(appPath: string): string[] {
  const requests = ['/auth/status'];
  const editor = EDITOR_PATH.exec(appPath);
  if (editor) {
    const [spaceId, number, pageId] = [editor[1], editor[2], editor[3]].map((s) => (s ? segment(s) : null));
    if (spaceId && number) {
      const space = `/v1/spaces/${spaceId}`;
      const changeRequest = `${space}/change-requests/${number}`;
      requests.push(space, changeRequest, `${changeRequest}/content`);
      if (pageId) requests.push(`${changeRequest}/content/page/${pageId}`);
    }
  }
  return requests;
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The `<link>` elements for the screen at `appPath` (the request's path without the server's
 * `base`); `signedIn` says whether its API requests would be answered.
 */
export function preloadLinks(appPath: string, base: string, signedIn: boolean, editor: EditorFiles): string {
  const links: string[] = [];
  if (EDITOR_PATH.test(appPath)) {
    // Relative to the page's <base href="{base}/app/">, as index.html's own files are.
    for (const script of editor.scripts)
      links.push(`<link rel="modulepreload" crossorigin href="./${attribute(script)}">`);
    for (const style of editor.styles)
      links.push(`<link rel="preload" as="style" crossorigin href="./${attribute(style)}">`);
  }
  if (signedIn) {
    for (const request of firstRequests(appPath))
      links.push(`<link rel="preload" as="fetch" crossorigin href="${attribute(`${base}${request}`)}">`);
  }
  return links.join('\n    ');
}
