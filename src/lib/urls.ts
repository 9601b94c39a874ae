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
