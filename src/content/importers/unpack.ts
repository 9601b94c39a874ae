/**
 * Unzips an archive within limits, for the .zip and .docx importers: fflate's streaming `Unzip`
 * finds the entries, and each deflated one is inflated by node:zlib (the libuv thread pool, off the
 * event loop). The sizes an archive declares are not trusted: a running count of the bytes
 * actually inflated stops everything (413) once it passes `maxBytes`.
 */
import { createInflateRaw, type InflateRaw } from 'node:zlib';
import { type FlateError, Unzip, type UnzipDecoder, type UnzipFile } from 'fflate';
import { type ApiError, badRequest, payloadTooLarge } from '../../lib/errors.js';

export interface UnpackLimits {
  /** Entries (files) kept; more is a 400. */
  maxEntries: number;
  /** Bytes of every entry kept, as inflated; more is a 413. */
  maxBytes: number;
  /** What the archive is, in messages: "the archive", "the .docx document". */
  label: string;
  /** Entries to leave out (not inflated, not counted). */
  skip?: (name: string) => boolean;
}

/** fflate's decoder interface over node:zlib's streaming raw inflate (ZIP method 8). */
class ThreadPoolInflate implements UnzipDecoder {
  static compression = 8;
  ondata: UnzipDecoder['ondata'] = () => {};
  private readonly stream: InflateRaw = createInflateRaw();

  constructor() {
    this.stream.on('data', (chunk: Buffer) =>
      this.ondata(null, new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) as Uint8Array<ArrayBuffer>, false),
    );
    this.stream.on('end', () => this.ondata(null, new Uint8Array(0), true));
    this.stream.on('error', (error) => this.ondata(error as unknown as FlateError, new Uint8Array(0), true));
  }

  push(chunk: Uint8Array, final: boolean): void {
    if (this.stream.destroyed) return;
    if (chunk.length > 0) this.stream.write(chunk);
    if (final) this.stream.end();
  }

  terminate(): void {
    this.stream.destroy();
  }
}

const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY = 0x06054b50;

/** Path → bytes of the archive's files (folders left out). */
export function unpackZip(bytes: Uint8Array, limits: UnpackLimits): Promise<Map<string, Uint8Array>> {
  const signature = bytes.length >= 4 ? Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) : 0;
  if (signature !== LOCAL_HEADER && signature !== END_OF_DIRECTORY) {
    return Promise.reject(badRequest(`${limits.label} is not a readable .zip archive`));
  }
  return new Promise((resolve, reject) => {
    const out = new Map<string, Uint8Array>();
    const started: UnzipFile[] = [];
    let inflated = 0;
    let pending = 0;
    let read = false;
    let failed = false;
    const fail = (error: ApiError) => {
      if (failed) return;
      failed = true;
      for (const file of started) file.terminate();
      reject(error);
    };
    const settle = () => {
      if (!failed && read && pending === 0) resolve(out);
    };
    const unzip = new Unzip((file) => {
      if (failed || file.name.endsWith('/') || limits.skip?.(file.name)) return;
      if (started.length >= limits.maxEntries) {
        fail(badRequest(`${limits.label} has more than ${limits.maxEntries} files`));
        return;
      }
      const chunks: Uint8Array[] = [];
      pending++;
      file.ondata = (error, data, final) => {
        if (failed) return;
        if (error) {
          fail(badRequest(`${limits.label} is not a readable .zip archive: ${error.message}`));
          return;
        }
        inflated += data.length;
        if (inflated > limits.maxBytes) {
          fail(payloadTooLarge(`${limits.label} unpacks to more than ${limits.maxBytes} bytes`));
          return;
        }
        if (data.length > 0) chunks.push(data);
        if (final) {
          out.set(file.name, chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks));
          pending--;
          settle();
        }
      };
      started.push(file);
      try {
        file.start();
      } catch (error) {
        fail(badRequest(`${limits.label} is not a readable .zip archive: ${(error as Error).message}`));
      }
    });
    unzip.register(ThreadPoolInflate);
    try {
      unzip.push(bytes, true);
    } catch (error) {
      fail(badRequest(`${limits.label} is not a readable .zip archive: ${(error as Error).message}`));
    }
    read = true;
    settle();
  });
}
