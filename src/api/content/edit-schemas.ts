/** Schemas of the changes of a change request's content: the batch edit (`POST …/content`) and imports. */
import { Type } from 'typebox';
import { StringEnum } from '../../lib/schemas.js';
import { ChangeRequest, MAX_BATCH_CHANGES } from '../change-requests/schemas.js';
import { RevisionFileSchema } from './schemas.js';

export const ContentRefSchema = Type.Union([
  Type.Object({ kind: Type.Literal('url'), url: Type.String({ minLength: 1, maxLength: 2048 }) }),
  Type.Object({ kind: Type.Literal('page'), page: Type.String({ minLength: 1 }), space: Type.Optional(Type.String()) }),
  Type.Object({ kind: Type.Literal('file'), file: Type.String({ minLength: 1 }), space: Type.Optional(Type.String()) }),
  Type.Object({
    kind: Type.Literal('anchor'),
    anchor: Type.String({ minLength: 1 }),
    page: Type.Optional(Type.String()),
    space: Type.Optional(Type.String()),
  }),
]);

/** The official `JSONDocument`, checked at its top level (blocks are kept as sent). */
export const JsonDocumentSchema = Type.Object({
  object: Type.Literal('document'),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  nodes: Type.Array(
    Type.Object({ object: Type.Literal('block'), type: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
  ),
});

export const DocumentInput = Type.Union([
  Type.Object({ markdown: Type.String() }, { additionalProperties: false }),
  Type.Object({ document: JsonDocumentSchema }, { additionalProperties: false }),
  Type.Object({}, { additionalProperties: false }),
]);

const PageFields = {
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\s?#]+$' })),
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  icon: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  /** Accepted for compatibility with the official document; not stored. */
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
  condition: Type.Optional(
    Type.String({
      maxLength: 1024,
      description:
        'Adaptive content: an expression over visitor.claims; the page shows only where it holds ("" removes it)',
    }),
  ),
  type: Type.Optional(StringEnum(['document', 'group', 'link'] as const, { description: 'Bindery: the page type' })),
  target: Type.Optional(ContentRefSchema),
};

const INTO = 'The parent page: its id, or the ref of a page inserted earlier in the same batch';

export const InsertPage = Type.Object(
  {
    operation: Type.Literal('insert_page'),
    ...PageFields,
    into: Type.Optional(Type.String({ minLength: 1, description: INTO })),
    at: Type.Optional(Type.Integer({ minimum: 0 })),
    ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    document: Type.Optional(DocumentInput),
  },
  { additionalProperties: false },
);

export const UpdatePage = Type.Object(
  {
    operation: Type.Literal('update_page'),
    page: Type.String({ minLength: 1 }),
    ...PageFields,
    into: Type.Optional(Type.Union([Type.String({ minLength: 1, description: INTO }), Type.Null()])),
    at: Type.Optional(Type.Integer({ minimum: 0 })),
    document: Type.Optional(DocumentInput),
  },
  { additionalProperties: false },
);

export const DeletePage = Type.Object(
  { operation: Type.Literal('delete_page'), page: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const InsertFiles = Type.Object(
  {
    operation: Type.Literal('insert_files'),
    files: Type.Array(
      Type.Object(
        {
          ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          name: Type.String({ minLength: 1, maxLength: 256 }),
          contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          url: Type.Optional(Type.String({ minLength: 1 })),
          base64: Type.Optional(Type.String()),
          storageKey: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 512,
              description:
                'Bindery extension: the `key` of a file uploaded through generateStorageUploadURL, in the same organization',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);

/** Reusable contents: blocks of content shared by pages, part of every revision. */
const ReusableTitle = Type.String({ minLength: 1, maxLength: 100 });
export const InsertReusableContent = Type.Object(
  {
    operation: Type.Literal('insert_reusable_content'),
    title: ReusableTitle,
    ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    document: Type.Optional(DocumentInput),
  },
  { additionalProperties: false },
);
export const UpdateReusableContent = Type.Object(
  {
    operation: Type.Literal('update_reusable_content'),
    reusableContent: Type.String({ minLength: 1 }),
    title: Type.Optional(ReusableTitle),
    document: Type.Optional(DocumentInput),
  },
  { additionalProperties: false },
);
export const DeleteReusableContent = Type.Object(
  { operation: Type.Literal('delete_reusable_content'), reusableContent: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const ContentChangesBody = Type.Object(
  {
    changes: Type.Array(
      Type.Union([
        InsertPage,
        UpdatePage,
        DeletePage,
        InsertFiles,
        InsertReusableContent,
        UpdateReusableContent,
        DeleteReusableContent,
      ]),
      {
        minItems: 1,
        maxItems: MAX_BATCH_CHANGES,
      },
    ),
  },
  { additionalProperties: false },
);

export const ContentChangesQuery = Type.Object({
  compat: Type.Optional(
    Type.Boolean({ default: true, description: 'true: answer the change request; false: also the affected pages' }),
  ),
});

const PageRef = Type.Object({
  object: Type.Literal('page'),
  id: Type.String(),
  urls: Type.Object({ location: Type.String() }),
});

export const ContentUpdate = Type.Object({
  changeRequest: ChangeRequest,
  changes: Type.Array(
    Type.Union([
      Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String()), page: PageRef }),
      Type.Object({ object: Type.Literal('updated_page'), page: PageRef }),
      Type.Object({ object: Type.Literal('deleted_page'), page: Type.String() }),
      Type.Object({
        object: Type.Literal('created_reusable_content'),
        ref: Type.Optional(Type.String()),
        reusableContent: Type.String(),
      }),
      Type.Object({ object: Type.Literal('updated_reusable_content'), reusableContent: Type.String() }),
      Type.Object({ object: Type.Literal('deleted_reusable_content'), reusableContent: Type.String() }),
    ]),
  ),
  insertedFiles: Type.Array(RevisionFileSchema),
});

export const IMPORT_SOURCES = [
  'website',
  'docx',
  'markdown',
  'html',
  'zip',
  'confluence',
  'github-wiki',
  'dropbox-paper',
  'notion',
  'google-docs',
] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export const ImportBody = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'An http(s) URL or a data: URI' }),
    source: StringEnum(IMPORT_SOURCES),
  },
  { additionalProperties: false },
);

export const ImportResult = Type.Object({
  revision: Type.String(),
  importedResources: Type.Number(),
  totalResources: Type.Number(),
});
