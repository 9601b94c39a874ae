/**
 * Customization settings: what is stored is only what was set (the site's PUT body, a site space's
 * overrides), so the defaults can evolve; what is returned is always complete — the defaults, then
 * the site's settings, then (for a site space) its overrides, merged key by key.
 */
import type { SiteRow, SiteSpaceRow } from '../db/schema.js';
import {
  type CustomizationObject,
  type CustomizationOverridePatch,
  type CustomizationPatch,
  DEFAULT_CUSTOMIZATION,
} from './customization-schema.js';

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `patch` merged over `base`: objects key by key, everything else (arrays included) replaced. */
export function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key] as Json, value) : value;
  }
  return out;
}

/**
 * Folds a PATCH of overrides into the stored ones: a value sets its key, null removes it (the site's
 * setting shows through again), objects fold key by key; objects left empty are dropped.
 */
export function foldOverride(existing: Json, patch: Json): Json {
  const out: Json = { ...existing };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete out[key];
    } else if (isObject(value)) {
      const folded = foldOverride(isObject(out[key]) ? (out[key] as Json) : {}, value);
      if (Object.keys(folded).length === 0) delete out[key];
      else out[key] = folded;
    } else {
      out[key] = value;
    }
  }
  return out;
}

const parse = (text: string | null): Json => (text ? (JSON.parse(text) as Json) : {});

/** The site's complete settings. */
export function siteCustomization(site: Pick<SiteRow, 'customization'>): CustomizationObject {
  return deepMerge(DEFAULT_CUSTOMIZATION as unknown as Json, parse(site.customization)) as CustomizationObject;
}

/** A site space's complete settings: the site's with the site space's overrides. */
export function siteSpaceCustomization(
  site: Pick<SiteRow, 'customization'>,
  siteSpace: Pick<SiteSpaceRow, 'customization'>,
): CustomizationObject {
  return deepMerge(siteCustomization(site) as unknown as Json, parse(siteSpace.customization)) as CustomizationObject;
}

/** What to store for a site's PUT: the body as given (absent keys keep following the defaults). */
export function storedSiteCustomization(body: CustomizationPatch): string {
  return JSON.stringify(body);
}

/** What to store after a site space's PATCH; null when no override is left. */
export function storedOverride(existing: string | null, patch: CustomizationOverridePatch): string | null {
  const folded = foldOverride(parse(existing), patch as Json);
  return Object.keys(folded).length === 0 ? null : JSON.stringify(folded);
}
