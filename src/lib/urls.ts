/**
 * Builds every URL we return. `urls.location` is the resource in this API; `urls.app` is where a
 * person opens it, under `PUBLIC_URL`.
 */
export class Urls {
  constructor(readonly publicUrl: string) {}

  /** API URL of `path` (which starts with a slash, without the `/v1` prefix). */
  api(path: string): string {
    return `${this.publicUrl}/v1${path}`;
  }

  /** App URL of `path` (which starts with a slash). */
  app(path: string): string {
    return `${this.publicUrl}${path}`;
  }
}

/**
 * `value` when it is a path on this server to send a browser back to after signing in (`/x?y`),
 * `fallback` when absent; null for anything that could lead elsewhere: an absolute URL, a
 * protocol-relative `//host`, a backslash (`/\host`, which browsers read as `//host`), control characters.
 */
export function sameOriginPath(value: string | undefined | null, fallback = '/'): string | null {
  if (value === undefined || value === null || value === '') return fallback;
  if (value.length > 2048 || !value.startsWith('/') || value.startsWith('//')) return null;
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  return value;
}
