/** Schemas of content reads (live revision and change requests). */
import { Type } from 'typebox';
import { PagedList, PageQuery } from '../../lib/paging.js';
import { StringEnum, Timestamp } from '../../lib/schemas.js';
import { ChangeRequest } from '../change-requests/schemas.js';

const GitBlob = Type.Object({ oid: Type.String(), path: Type.String() });

export const RevisionFileSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
  size: Type.Number(),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
  git: Type.Optional(GitBlob),
});

export const Layout = Type.Object({
  width: StringEnum(['default', 'wide'] as const),
  cover: Type.Boolean(),
  coverSize: StringEnum(['hero', 'full', 'background'] as const),
  coverMask: StringEnum(['none', 'radial'] as const),
  title: Type.Boolean(),
  description: Type.Boolean(),
  tableOfContents: Type.Boolean(),
  outline: Type.Boolean(),
  pagination: Type.Boolean(),
  metadata: Type.Boolean(),
  tags: Type.Boolean(),
  actions: Type.Boolean(),
  anchors: Type.Boolean(),
});

/**
 * A page of the official `RevisionPage` union (document, group or link), as one object schema:
 * which fields are present depends on `type`. `pages` nests the same schema.
 */
export const RevisionPage = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    kind: StringEnum(['sheet', 'group', 'link'] as const),
    type: StringEnum(['document', 'group', 'link'] as const),
    emoji: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    slug: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    hidden: Type.Optional(Type.Boolean()),
    condition: Type.Optional(Type.String({ minLength: 1 })),
    urls: Type.Optional(Type.Object({ app: Type.String() })),
    layout: Type.Optional(Layout),
    tags: Type.Optional(Type.Array(Type.Unknown())),
    git: Type.Optional(GitBlob),
    documentId: Type.Optional(Type.String()),
    document: Type.Optional(Type.Unknown({ description: 'The body as the official JSONDocument (format=document)' })),
    markdown: Type.Optional(Type.String({ description: 'The body as Markdown (format=markdown)' })),
    target: Type.Optional(Type.Unknown({ description: 'Link pages: the ContentRef they point to' })),
    href: Type.Optional(Type.String()),
    pages: Type.Optional(Type.Array(Type.Ref('RevisionPage'))),
  },
  { $id: 'RevisionPage' },
);

export const ReusableContent = Type.Object({
  id: Type.String(),
  title: Type.String(),
  document: Type.Optional(Type.String()),
  git: Type.Optional(GitBlob),
});

export const Revision = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  type: StringEnum(['edits', 'merge', 'update'] as const),
  parents: Type.Array(Type.String()),
  pages: Type.Array(Type.Ref('RevisionPage')),
  files: Type.Array(RevisionFileSchema),
  reusableContents: Type.Array(ReusableContent),
  tags: Type.Array(Type.Unknown()),
  createdAt: Timestamp,
  urls: Type.Object({
    app: Type.String(),
    published: Type.Optional(Type.String()),
    public: Type.Optional(Type.String()),
  }),
  mergedFrom: Type.Optional(ChangeRequest),
  /** The Git commit the revision was exported to or imported from (src/git). */
  git: Type.Optional(
    Type.Object({
      oid: Type.String(),
      message: Type.String(),
      createdByGitBook: Type.Boolean(),
      url: Type.Optional(Type.String()),
      ref: Type.Optional(Type.String()),
    }),
  ),
});

export const PagesList = Type.Object({ pages: Type.Array(Type.Ref('RevisionPage')) });

export const ContentQuery = Type.Object({
  metadata: Type.Optional(Type.Boolean({ default: true, description: 'false: leave out git metadata' })),
  computed: Type.Optional(Type.Boolean({ default: true, description: 'false: skip computed content' })),
});

export const PageQueryFormat = Type.Object({
  format: Type.Optional(StringEnum(['document', 'markdown'] as const, { default: 'document' })),
  metadata: Type.Optional(Type.Boolean({ default: true })),
  computed: Type.Optional(Type.Boolean({ default: true })),
});

export const FilesQuery = Type.Object({ ...PageQuery, ...ContentQuery.properties });

export const FileList = PagedList(RevisionFileSchema);

export const LinkItem = Type.Object({
  target: Type.Unknown({ description: 'The ContentRef the link points to' }),
  text: Type.String(),
  status: StringEnum(['ok', 'broken'] as const),
});

export const LinksList = Type.Object({
  items: Type.Array(LinkItem),
  count: Type.Number(),
  next: Type.Optional(Type.Object({ page: Type.String() })),
  stats: Type.Object({
    total: Type.Number(),
    broken: Type.Object({ total: Type.Number(), changeRequest: Type.Number() }),
  }),
});

export const BacklinksList = PagedList(Type.Ref('RevisionPage'));
