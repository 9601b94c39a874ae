import type { Static } from 'typebox';
import type { CollectionRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { collectionFlags } from '../../permissions/content.js';
import { presentDefaultLevel } from '../../permissions/resolver.js';
import type { Collection } from './schemas.js';

export function presentCollection(c: CollectionRow, role: Role | null, urls: Urls): Static<typeof Collection> {
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== null ? { description: c.description } : {}),
    organization: c.organization_id,
    ...(c.parent_id ? { parent: c.parent_id } : {}),
    defaultLevel: presentDefaultLevel(c.default_level),
    urls: { location: urls.api(`/collections/${c.id}`), app: urls.app(`/c/${c.id}`) },
    permissions: collectionFlags(role),
  };
}
