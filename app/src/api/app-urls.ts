/**
 * A `urls.app` the API hands out, as a link of this app: its path (and fragment) on this origin.
 * The API's URLs carry PUBLIC_URL; in a browser on another name for the same server (a proxy, a
 * port) the link must stay here.
 */
export function appPath(url: string): string {
  try {
    const parsed = new URL(url, window.location.href);
    return `${parsed.pathname}${parsed.search}${parsed.hash}`;
  } catch {
    return '#';
  }
}
