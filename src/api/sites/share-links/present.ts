import type { Static } from 'typebox';
import type { SiteShareLinkRow } from '../../../db/schema.js';
import type { PublishedUrls } from '../../../sites/urls.js';
import type { ShareLink } from './schemas.js';

export function presentShareLink(row: SiteShareLinkRow, urls: PublishedUrls): Static<typeof ShareLink> {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: row.active === 1,
    urls: { published: urls.ofShareLink(row.key) },
  };
}
