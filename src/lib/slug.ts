/**
 * URL slugs made from titles: page slugs (content, Git import) and site paths (site basenames,
 * section and site-space paths). One module, so both kinds follow the same rules; they differ only
 * in the longest slug and in the word used when a title has no letter or digit.
 */

export interface SlugOptions {
  /** The slug of a title without any letter or digit (default `page`). */
  fallback?: string;
  /** Longest slug (default 100, the page slug limit); site paths use {@link SITE_SLUG_LENGTH}. */
  maxLength?: number;
}

/** Longest path segment a site, section or site space gets from its title. */
export const SITE_SLUG_LENGTH = 90;

/** A URL slug from a title: lower-case ASCII letters and digits separated by `-`. */
export function slugify(title: string, { fallback = 'page', maxLength = 100 }: SlugOptions = {}): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
  return slug || fallback;
}

/**
 * `base`, or `base-2`, `base-3`, … whichever is not in `taken`. The base is cut to 96 characters
 * before a suffix, so that a 100-character slug stays within 100 up to `-999`.
 */
export function uniqueSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 96)}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
