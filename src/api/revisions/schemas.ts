/**
 * Schemas of the revision history (`/spaces/{spaceId}/revisions/{revisionId}…`), as the official
 * document defines its operations. Revisions, pages, files and reusable contents have the shapes
 * the live content and change requests answer with (api/content/schemas.ts).
 */
import { type TSchema, Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { StringEnum } from '../../lib/schemas.js';
import { ChangeRequest } from '../change-requests/schemas.js';

const Id = Type.String({ minLength: 1 });

export const RevisionParams = Type.Object({ spaceId: Id, revisionId: Id });
export const RevisionPageParams = Type.Object({ spaceId: Id, revisionId: Id, pageId: Id });
export const RevisionFileParams = Type.Object({ spaceId: Id, revisionId: Id, fileId: Id });
export const RevisionReusableParams = Type.Object({ spaceId: Id, revisionId: Id, reusableContentId: Id });

const metadata = Type.Optional(
  Type.Boolean({ default: true, description: 'false: leave out the mutable Git metadata (`git`)' }),
);
const computed = Type.Optional(
  Type.Boolean({ default: true, description: 'Accepted; Bindery has no computed content, so it changes nothing' }),
);
/** Accepted as the official document has them; Bindery documents hold no expressions or inclusions to expand. */
const evaluated = Type.Optional(
  Type.Union([Type.Boolean(), StringEnum(['deterministic-only'] as const)], {
    description: 'Accepted; Bindery documents have no expressions to evaluate',
  }),
);
const dereferenced = Type.Optional(
  Type.Union([Type.Boolean(), StringEnum(['reusable-contents'] as const)], {
    description: 'Accepted; Bindery documents embed no references to expand',
  }),
);

export const RevisionQuery = Type.Object({ metadata, computed });

export const RevisionFilesQuery = Type.Object({ ...PageQuery, metadata, computed });

export const RevisionPageQuery = Type.Object({
  format: Type.Optional(StringEnum(['document', 'markdown'] as const, { default: 'document' })),
  'format.markdown.refs': Type.Optional(
    StringEnum(['relative', 'stable'] as const, {
      default: 'relative',
      description:
        'With format=markdown: `relative` writes references to pages and files as relative paths from the page (as Git Sync does), `stable` as `/pages/<id>` and `/files/<id>`',
    }),
  ),
  evaluated,
  dereferenced,
  metadata,
  computed,
});

export const RevisionPathQuery = Type.Object({
  ...RevisionPageQuery.properties,
  cachedMetadata: Type.Optional(Type.Boolean({ default: false, description: 'Accepted; Git metadata is never stale' })),
});

export const DocumentQuery = Type.Object({ evaluated, dereferenced });

export const SemanticChangesQuery = Type.Object({
  metadata,
  computed,
  limit: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1000, default: 10, description: 'Changes returned at most (default 10)' }),
  ),
});

export const ChangeRequestChangesQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1000, default: 10, description: 'Changes returned at most (default 10)' }),
  ),
});

/** The official `JSONDocument`: blocks as stored. */
export const JsonDocument = Type.Object({
  object: Type.Literal('document'),
  data: Type.Record(Type.String(), Type.Unknown()),
  nodes: Type.Array(Type.Unknown()),
});

const change = <T extends TSchema>(value: T) =>
  Type.Optional(Type.Object({ before: Type.Optional(value), after: Type.Optional(value) }));

const ChangedPage = Type.Object({
  id: Type.String(),
  type: StringEnum(['document', 'group', 'link'] as const),
  title: Type.String(),
  path: Type.Optional(Type.String()),
});

const ChangedFile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
});

const ChangedReusableContent = Type.Object({
  id: Type.String(),
  title: Type.String(),
  document: Type.Optional(Type.String()),
});

/**
 * One change of the official `RevisionSemanticChange` union, as one object schema: which fields are
 * present depends on `type` (`page` for page changes, `file`, `reusableContent`; `attributes` for
 * edits, `parent` for moves).
 */
export const SemanticChange = Type.Object({
  type: StringEnum([
    'page_created',
    'page_edited',
    'page_deleted',
    'page_moved',
    'file_created',
    'file_edited',
    'file_deleted',
    'reusable_content_created',
    'reusable_content_edited',
    'reusable_content_deleted',
  ] as const),
  page: Type.Optional(ChangedPage),
  parent: Type.Optional(Type.Object({ before: Type.Optional(ChangedPage), after: Type.Optional(ChangedPage) })),
  file: Type.Optional(ChangedFile),
  reusableContent: Type.Optional(ChangedReusableContent),
  attributes: Type.Optional(
    Type.Object({
      title: change(Type.String()),
      description: change(Type.String()),
      slug: change(Type.String()),
      document: change(Type.String()),
      emoji: change(Type.String()),
      target: change(Type.Unknown({ description: 'A ContentRef' })),
      name: change(Type.String()),
      downloadURL: change(Type.String()),
      contentType: change(Type.String()),
      size: change(Type.Number()),
      dimensions: change(Type.Object({ width: Type.Number(), height: Type.Number() })),
    }),
  ),
});

export const SemanticChanges = Type.Object({
  mergedFrom: Type.Optional(ChangeRequest),
  changes: Type.Array(SemanticChange),
  more: Type.Optional(Type.Number({ description: 'How many changes were left out above `limit`' })),
});
