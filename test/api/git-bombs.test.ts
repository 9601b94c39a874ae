/**
 * Git import of crafted repositories, served by git http-backend, through the job queue: a tree
 * that nests the same subtree over and over (billions of paths, a handful of objects), more
 * objects than a pack may hold, and a blob that inflates beyond what a pack may inflate to. Each
 * import ends as a failed operation naming the limit, and the live content is left alone.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app.js';
import type { GitServer } from '../helpers/git-server.js';
import { type GitSyncWorld, gitSyncWorld, livePages, settled } from '../helpers/git-sync.js';

let h: Harness;
let server: GitServer;
let world: GitSyncWorld | undefined;

beforeAll(async () => {
  world = await gitSyncWorld();
  ({ h, server } = world);
}, 180_000);
afterAll(async () => {
  await world?.close();
});

/** Points `main` of a new repository at a commit of `tree`. */
function commitTree(name: string, tree: string): void {
  const commit = server.run(name, ['commit-tree', tree, '-m', 'Crafted']).trim();
  server.run(name, ['update-ref', 'refs/heads/main', commit]);
}

/** A tree object's body: `mode name\0<binary oid>` per entry, by name (every entry a tree here). */
function treeBody(entries: Array<[string, string]>): Buffer {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.concat(sorted.flatMap(([name, oid]) => [Buffer.from(`40000 ${name}\0`), Buffer.from(oid, 'hex')]));
}

/**
 * Writes tree objects into the repository as one pack (`git index-pack`): many objects at once,
 * where `git mktree` writes each as a file. Returns their ids, in order.
 */
function writeTrees(name: string, bodies: Buffer[]): string[] {
  const counts = Buffer.alloc(8);
  counts.writeUInt32BE(2, 0);
  counts.writeUInt32BE(bodies.length, 4);
  const parts: Buffer[] = [Buffer.from('PACK'), counts];
  const oids = bodies.map((body) => {
    // Object header: type 2 (tree) in bits 4-6, the size 4 bits then 7 bits a byte (high bit: more).
    const header: number[] = [];
    let byte = 0x20 | (body.length & 0x0f);
    for (let rest = body.length >> 4; rest > 0; rest >>= 7) {
      header.push(byte | 0x80);
      byte = rest & 0x7f;
    }
    header.push(byte);
    parts.push(Buffer.from(header), deflateSync(body));
    return createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
  });
  const pack = Buffer.concat(parts);
  server.run(name, ['index-pack', '--stdin'], Buffer.concat([pack, createHash('sha1').update(pack).digest()]));
  return oids;
}

/** Imports the repository into a new space; the operation's state once it ended, and the space. */
async function importRepo(name: string) {
  const ctx = await h.space();
  const res = await ctx.admin.client.post(`/v1/spaces/${ctx.spaceId}/git/import`, {
    url: server.url(name),
    ref: 'refs/heads/main',
  });
  expect(res.status).toBe(204);
  return { info: await settled(ctx), ctx };
}

describe('Git import bounds', () => {
  it('walks a tree that nests the same subtree 16 times on 8 levels once per object, and stops at the entries limit', async () => {
    server.createRepo('nested');
    let tree = server.run('nested', ['mktree'], '').trim();
    for (let level = 0; level < 8; level++) {
      const entries = [...'abcdefghijklmnop'].map((name) => `040000 tree ${tree}\t${name}\n`).join('');
      tree = server.run('nested', ['mktree'], entries).trim();
    }
    commitTree('nested', tree);
    const { info, ctx } = await importRepo('nested');
    expect(info.operation).toMatchObject({
      state: 'failure',
      direction: 'import',
      error: "the repository's tree has more than 50000 entries",
    });
    expect(await livePages(ctx)).toEqual([]);
  });

  it('refuses a pack of more objects than the limit before reading them', async () => {
    // 20,001 distinct small trees (each names the empty tree differently) under one root: no file at all.
    server.createRepo('many');
    const [empty] = writeTrees('many', [Buffer.alloc(0)]) as [string];
    const count = 20_001;
    const trees = writeTrees(
      'many',
      Array.from({ length: count }, (_, i) => treeBody([[`x${i}`, empty]])),
    );
    expect(new Set(trees).size).toBe(count);
    const [root] = writeTrees('many', [treeBody(trees.map((oid, i) => [`d${i}`, oid]))]) as [string];
    commitTree('many', root);
    const { info } = await importRepo('many');
    expect(info.operation).toMatchObject({
      state: 'failure',
      error: 'the repository sent more than 20000 objects',
    });
  });

  it('refuses a blob that inflates beyond the pack limit without inflating it', async () => {
    server.createRepo('inflate');
    const blob = server.run('inflate', ['hash-object', '-w', '--stdin'], Buffer.alloc(129 * 1024 * 1024)).trim();
    commitTree('inflate', server.run('inflate', ['mktree'], `100644 blob ${blob}\tzeros.bin\n`).trim());
    const { info } = await importRepo('inflate');
    expect(info.operation).toMatchObject({
      state: 'failure',
      error: "the repository's objects inflate to more than 134217728 bytes",
    });
  });
});
