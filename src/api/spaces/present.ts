import type { Static } from 'typebox';
import type { GitSyncRow, SpaceRow } from '../../db/schema.js';
import { presentGitSync } from '../../git/state.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { spaceFlags } from '../../permissions/content.js';
import { presentDefaultLevel, type Viewer } from '../../permissions/resolver.js';
import type { SpaceCounts, SpaceExtras } from './repo.js';
import type { Space } from './schemas.js';

export type SpaceObject = Static<typeof Space>;

export function presentSpace(
  space: SpaceRow,
  role: Role | null,
  counts: SpaceCounts,
  urls: Urls,
  gitSync?: GitSyncRow,
): SpaceObject {
  const published = space.visibility !== 'private' ? urls.app(`/s/${space.id}/published`) : undefined;
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji ?? '',
    visibility: space.visibility as SpaceObject['visibility'],
    createdAt: space.created_at,
    updatedAt: space.updated_at,
    ...(space.deleted_at ? { deletedAt: space.deleted_at } : {}),
    editMode: space.edit_mode as SpaceObject['editMode'],
    mergeRules: space.merge_rules ? JSON.parse(space.merge_rules) : { type: 'inherit' },
    urls: {
      location: urls.api(`/spaces/${space.id}`),
      app: urls.app(`/s/${space.id}`),
      ...(published ? { published } : {}),
      ...(space.visibility === 'public' && published ? { public: published } : {}),
      ...(space.icon_url ? { icon: space.icon_url } : {}),
    },
    organization: space.organization_id,
    ...(space.parent_id ? { parent: space.parent_id } : {}),
    ...(space.language ? { language: space.language } : {}),
    revision: space.revision_id,
    defaultLevel: presentDefaultLevel(space.default_level),
    ...counts,
    permissions: spaceFlags(role),
    ...(gitSync ? { gitSync: presentGitSync(gitSync) } : {}),
  };
}

/** Presents spaces as `viewer` sees them, with what `spaceExtras` loaded for the whole list. */
export function presentSpaces(spaces: SpaceRow[], viewer: Viewer, extras: SpaceExtras, urls: Urls): SpaceObject[] {
  return spaces.map((s) =>
    presentSpace(s, viewer.roleOnSpace(s), extras.counts.get(s.id) as SpaceCounts, urls, extras.gitSync.get(s.id)),
  );
}
