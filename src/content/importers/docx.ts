/**
 * .docx → document: mammoth turns the Word document into HTML (headings, lists, tables, links,
 * bold/italic, images), then the HTML path does the rest. Embedded images become files of the
 * revision, referenced from the document.
 */
import { badRequest } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Db } from '../../db/database.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';
import { storeFile } from '../file-entry.js';
import { htmlToDocument } from '../html.js';
import type { FileEntry } from '../store.js';
import { type ImportBundle, titleFromName } from './types.js';

export async function importDocx(db: Db, bytes: Buffer, name: string): Promise<ImportBundle> {
  const files: FileEntry[] = [];
  let images = 0;
  let html: string;
  // Loaded on first use: mammoth is large and .docx imports are rare (startup memory).
  const { default: mammoth } = await import('mammoth');
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        convertImage: mammoth.images.imgElement(async (image) => {
          images++;
          const data = await image.readAsBuffer();
          // An image over the file limit is left out (counted, not imported).
          if (data.length > MAX_FILE_BYTES) return { src: '' };
          const ext = image.contentType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin';
          const file = await storeFile(db, {
            id: newId(),
            name: `image-${images}.${ext}`,
            contentType: image.contentType,
            bytes: data,
          });
          files.push(file);
          return { src: `/files/${file.id}` };
        }),
      },
    );
    html = result.value;
  } catch (error) {
    throw badRequest(`the source is not a readable .docx document: ${(error as Error).message}`);
  }
  const { document, title } = htmlToDocument(html);
  return {
    pages: [{ id: newId(), title: title ?? titleFromName(name), document, children: [] }],
    files,
    total: 1 + images,
    imported: 1 + files.length,
  };
}
