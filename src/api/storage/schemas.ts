import { Type } from 'typebox';
import { Params, StringEnum } from '../../lib/schemas.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';

/** The official StorageUploadKind. */
export const UPLOAD_KINDS = ['customization_font', 'import_file', 'organization_file'] as const;

export const OrgParams = Type.Object({ organizationId: Params.organizationId });

/** The official StorageFileMetadata; `size` is the limit the upload is held to. */
export const GenerateUploadBody = Type.Object(
  {
    file: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 256, description: 'Original filename' }),
        type: Type.String({
          minLength: 1,
          maxLength: 255,
          // A MIME type (`type/subtype`), compared with the PUT's Content-Type.
          pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$',
          description: 'MIME type of the file',
        }),
        size: Type.Integer({ minimum: 1, maximum: MAX_FILE_BYTES, description: 'Size of the file in bytes' }),
      },
      { additionalProperties: false },
    ),
    kind: StringEnum(UPLOAD_KINDS),
  },
  { additionalProperties: false },
);

export const StorageUploadURL = Type.Object(
  {
    object: Type.Literal('storage-signed-url'),
    url: Type.String({ format: 'uri', description: 'Presigned URL for uploading the file' }),
    key: Type.String({ description: 'The key of the file, for `insert_files` (`storageKey`)' }),
  },
  { $id: 'StorageUploadURL' },
);

export const UploadParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }) });
export const UploadQuery = Type.Object({ signature: Type.Optional(Type.String({ maxLength: 100 })) });
