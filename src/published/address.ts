/** How a request reached a site. */
export interface Address {
  siteId: string;
  /** The path the site is served under, as links must write it (`/sites/acme/docs`). */
  basePath: string;
  /** Scheme and host of absolute URLs (sitemap, canonical). */
  origin: string;
  /** The path under the base, with its leading slash (or empty). */
  rest: string;
  secure: boolean;
}
