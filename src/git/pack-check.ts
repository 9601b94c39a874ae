/**
 * The bounds of a received Git pack, checked before isomorphic-git indexes it (its indexer inflates
 * every object whole, in memory, on the event loop, and compares sizes only afterwards, so one
 * small pack could inflate to gigabytes). Here: the object count from the header, then each object
 * inflated with node:zlib (off the event loop), never past the size it declares, the total
 * against {@link GIT_LIMITS.packInflatedBytes} (a delta by the size of its result), and the deadline.
 * Nothing inflated is kept.
 */
import { inflate, type ZlibOptions } from 'node:zlib';
import { GitSyncError } from './errors.js';
import { GIT_LIMITS } from './limits.js';

const OFS_DELTA = 6;
const REF_DELTA = 7;

interface Inflated {
  buffer: Buffer;
  engine: { bytesWritten: number };
}

/** Inflates the zlib stream at the start of `input`: its bytes, and how many input bytes it took. */
function inflateAt(input: Buffer, maxOutputLength: number): Promise<Inflated> {
  const options = { info: true, maxOutputLength } as ZlibOptions;
  return new Promise((resolve, reject) => {
    inflate(input, options, (error, result) => (error ? reject(error) : resolve(result as unknown as Inflated)));
  });
}

/** A size varint of a delta's header (7 bits a byte, least significant first); [value, next offset]. */
function deltaVarint(data: Buffer, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  let pos = at;
  for (;;) {
    const byte = data[pos++];
    if (byte === undefined) throw new GitSyncError('the repository sent a malformed pack (a delta without sizes)');
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (!(byte & 0x80)) return [value, pos];
  }
}

export interface PackBudget {
  /** Epoch milliseconds after which the read fails. */
  deadline: number;
}

export async function checkPack(pack: Uint8Array, budget: PackBudget): Promise<void> {
  const buf = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
  if (buf.length < 32 || buf.toString('latin1', 0, 4) !== 'PACK') {
    throw new GitSyncError('the repository sent a malformed pack');
  }
  const count = buf.readUInt32BE(8);
  if (count > GIT_LIMITS.packObjects) {
    throw new GitSyncError(`the repository sent more than ${GIT_LIMITS.packObjects} objects`);
  }
  const end = buf.length - 20;
  const truncated = () => new GitSyncError('the repository sent a truncated pack');
  let pos = 12;
  let inflated = 0;
  const spend = (bytes: number) => {
    inflated += bytes;
    if (inflated > GIT_LIMITS.packInflatedBytes) {
      throw new GitSyncError(`the repository's objects inflate to more than ${GIT_LIMITS.packInflatedBytes} bytes`);
    }
  };
  for (let i = 0; i < count; i++) {
    if (Date.now() > budget.deadline) {
      throw new GitSyncError(`reading the repository took more than ${GIT_LIMITS.readMs} ms`);
    }
    // Header: type in bits 4-6 of the first byte, size in its low 4 bits then 7 bits a byte.
    let byte = buf[pos++];
    if (byte === undefined || pos > end) throw truncated();
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let scale = 16;
    while (byte & 0x80) {
      byte = buf[pos++];
      if (byte === undefined || pos > end) throw truncated();
      size += (byte & 0x7f) * scale;
      scale *= 128;
    }
    if (type === OFS_DELTA) {
      do {
        byte = buf[pos++];
        if (byte === undefined || pos > end) throw truncated();
      } while (byte & 0x80);
    } else if (type === REF_DELTA) {
      pos += 20;
    }
    if (pos > end) throw truncated();
    const delta = type === OFS_DELTA || type === REF_DELTA;
    // A whole object is counted before it is inflated: a declared size beyond the budget stops here.
    if (!delta) spend(size);
    let result: Inflated;
    try {
      result = await inflateAt(buf.subarray(pos, end), Math.max(1, size));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new GitSyncError('the repository sent an object that inflates beyond its declared size');
      }
      throw new GitSyncError(`the repository sent a malformed pack: ${(error as Error).message}`);
    }
    if (result.buffer.length !== size) {
      throw new GitSyncError('the repository sent an object whose size differs from the declared one');
    }
    pos += result.engine.bytesWritten;
    if (delta) {
      // The delta's own bytes, then what applying it allocates: the result size it declares.
      spend(size);
      const [, next] = deltaVarint(result.buffer, 0);
      spend(deltaVarint(result.buffer, next)[0]);
    }
  }
}
