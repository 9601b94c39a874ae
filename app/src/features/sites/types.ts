/** Sites as the app reads them (the official shapes have more fields). */
import type { Space } from '../../api/types';

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export interface Site {
  object: 'site';
  id: string;
  title: string;
  basename: string;
  visibility: SiteVisibility;
  published: boolean;
  siteSpaces: number;
  createdAt: string;
  permissions: { admin: boolean; edit: boolean; create: boolean };
  urls: { location: string; app: string; published?: string };
}

export interface SiteSpace {
  object: 'site-space';
  id: string;
  path: string;
  section?: string;
  space: Space;
  title: string;
  default: boolean;
  urls: { published?: string };
}

export interface SiteSection {
  object: 'site-section';
  id: string;
  title: string;
  path: string;
  default: boolean;
  siteSpaces: SiteSpace[];
  urls: { published?: string };
}

export interface ShareLink {
  object: 'share-link';
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  urls: { published: string };
}

export interface ThemedColor {
  light: string;
  dark: string;
}

/** The customization keys this app edits; the rest is sent back as it was read. */
export interface Customization {
  title?: string;
  styling: { primaryColor: ThemedColor; [key: string]: unknown };
  header: { logo?: { light: string; dark: string }; [key: string]: unknown };
  [key: string]: unknown;
}
