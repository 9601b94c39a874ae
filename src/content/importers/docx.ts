/**
 * .docx → document: mammoth turns the Word document into HTML (headings, lists, tables, links,
 * bold/italic, images), then the HTML path does the rest. Embedded images become files of the
 * revision, referenced from the document.
 *
 * A .docx is a zip archive: it is unpacked first within {@link DOCX_LIMITS} (bytes counted as they
 * are inflated, off the event loop; beyond them a 400 or 413), and mammoth reads those bytes,
 * stored uncompressed, so it never inflates more than was counted.
 */
import { zipSync } from 'fflate';
import type { Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { MAX_FILE_BYTES } from '../../storage/files.js';
import { storeFile } from '../file-entry.js';
import { htmlToDocument } from '../html.js';
import type { FileEntry } from '../store.js';
import { type ImportBundle, titleFromName } from './types.js';
import { unpackZip } from './unpack.js';

export const DOCX_LIMITS = {
  /** Parts of the package (XML parts, media). */
  maxEntries: 1000,
  /** Bytes of all parts, inflated. */
  maxBytes: 50 * 1024 * 1024,
};

async function boundedPackage(bytes: Buffer): Promise<Buffer> {
  const parts = await unpackZip(bytes, { ...DOCX_LIMITS, label: 'the .docx document' });
  return Buffer.from(zipSync(Object.fromEntries(parts), { level: 0 }));
}

export async function importDocx(db: Db, bytes: Buffer, name: string): Promise<ImportBundle> {
  const files: FileEntry[] = [];
  let images = 0;
  let html: string;
  const docx = await boundedPackage(bytes);
  // Loaded on first use: mammoth is large and .docx imports are rare (startup memory).
  const { default: mammoth } = await import('mammoth');
  try {
    const result = await mammoth.convertToHtml(
      { buffer: docx },
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
