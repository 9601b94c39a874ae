/**
 * The checks a received pack passes before isomorphic-git indexes it (src/git/pack-check.ts), on
 * packs crafted byte by byte: what no Git server would send, as a hostile one could.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GIT_LIMITS } from '../../src/git/limits.js';
import { checkPack } from '../../src/git/pack-check.js';

const BLOB = 3;

/** A pack header and one object header per `[type, declared size, deflated data]`, and the trailer. */
function pack(objects: Array<[number, number, Buffer]>, count = objects.length): Buffer {
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(count, 8);
  const parts: Buffer[] = [head];
  for (const [type, size, data] of objects) {
    const header: number[] = [];
    let byte = (type << 4) | (size & 0x0f);
    for (let rest = Math.floor(size / 16); rest > 0; rest = Math.floor(rest / 128)) {
      header.push(byte | 0x80);
      byte = rest & 0x7f;
    }
    header.push(byte);
    parts.push(Buffer.from(header), data);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

const later = { deadline: Date.now() + 60_000 };

describe('checkPack', () => {
  it('accepts honest objects', async () => {
    const text = Buffer.from('hello\n');
    await expect(checkPack(pack([[BLOB, text.length, deflateSync(text)]]), later)).resolves.toBeUndefined();
  });

  it('stops an object inflating past its declared size without inflating the rest', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    await expect(checkPack(pack([[BLOB, 10, bomb]]), later)).rejects.toThrow(
      'the repository sent an object that inflates beyond its declared size',
    );
  });

  it('refuses declared sizes beyond the inflated limit, too many objects, and truncated packs', async () => {
    const big = GIT_LIMITS.packInflatedBytes + 1;
    await expect(checkPack(pack([[BLOB, big, deflateSync(Buffer.alloc(1))]]), later)).rejects.toThrow(
      `the repository's objects inflate to more than ${GIT_LIMITS.packInflatedBytes} bytes`,
    );
    await expect(checkPack(pack([], GIT_LIMITS.packObjects + 1), later)).rejects.toThrow(
      `the repository sent more than ${GIT_LIMITS.packObjects} objects`,
    );
    const text = Buffer.from('hello\n');
    await expect(checkPack(pack([[BLOB, text.length, deflateSync(text)]], 2), later)).rejects.toThrow(
      'the repository sent a truncated pack',
    );
  });

  it('stops once the deadline has passed', async () => {
    const text = Buffer.from('hello\n');
    await expect(checkPack(pack([[BLOB, text.length, deflateSync(text)]]), { deadline: 0 })).rejects.toThrow(
      `reading the repository took more than ${GIT_LIMITS.readMs} ms`,
    );
  });
});
