/**
 * A Git repository over smart HTTP, through isomorphic-git (a real Git implementation in
 * JavaScript): read the tree of a ref, or commit a set of files onto a ref and push. Each
 * operation works in a fresh temporary git directory (no work tree; a shallow fetch of the one
 * ref), removed afterwards. Credentials stay in the URL given here: isomorphic-git turns them into
 * a basic-auth header and never writes them to the directory.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpClient, PromiseFsClient, TreeEntry } from 'isomorphic-git';
import { lazyAsync } from '../lib/lazy.js';
import { GitSyncError } from './errors.js';
import { GIT_LIMITS } from './limits.js';
import { checkPack } from './pack-check.js';

export { GitSyncError };

/** isomorphic-git, loaded on the first Git operation (it is large; most processes never sync). */
const git = lazyAsync(() => import('isomorphic-git').then((m) => m.default));

/** A pack isomorphic-git received: it writes it here, then indexes it (inflating every object). */
const PACK_FILE = /[\\/]objects[\\/]pack[\\/]pack-[0-9a-f]*\.pack$/;

/**
 * node:fs for isomorphic-git (its documented file-system plugin), except that a pack it received
 * is checked against the limits ({@link checkPack}) before it is written, so before it is indexed.
 */
function guardedFs(deadline: number): PromiseFsClient {
  const writeFile = async (path: unknown, data: unknown, options: unknown) => {
    if (typeof path === 'string' && PACK_FILE.test(path) && data instanceof Uint8Array) {
      await checkPack(data, { deadline });
    }
    return fs.promises.writeFile(path as string, data as Uint8Array, options as fs.WriteFileOptions);
  };
  return { promises: { ...fs.promises, writeFile } };
}

/** A temporary git directory and the file system isomorphic-git reaches it through, with the read's deadline. */
interface Session {
  gitdir: string;
  fs: PromiseFsClient;
  deadline: number;
}

function checkDeadline(session: Session): void {
  if (Date.now() > session.deadline) {
    throw new GitSyncError(`reading the repository took more than ${GIT_LIMITS.readMs} ms`);
  }
}

export interface RemoteTarget {
  /** http(s) URL, possibly with `user:password@`. */
  url: string;
  /** A full ref (`refs/heads/main`) or a branch name. */
  ref: string;
  http: HttpClient;
}

/** `refs/heads/main` for `main`; a full ref stays as it is. */
export function fullRef(ref: string): string {
  return ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
}

async function withGitdir<T>(run: (session: Session) => Promise<T>): Promise<T> {
  const gitdir = await mkdtemp(join(tmpdir(), 'bindery-git-'));
  const deadline = Date.now() + GIT_LIMITS.readMs;
  try {
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
    // A refspec for fetches, but no remote URL: the URL (and its credentials) is passed per call, never written.
    await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' });
    return await run({ gitdir, fs: guardedFs(deadline), deadline });
  } finally {
    await rm(gitdir, { recursive: true, force: true });
  }
}

/** The commit `ref` points to on the remote, or null when the ref does not exist. */
async function remoteHead(target: RemoteTarget): Promise<string | null> {
  // Protocol v1: asked for v2 (isomorphic-git's default), a server speaking it (git http-backend:
  // GitHub, GitLab, Gitea) answers with its capabilities only, and `refs` comes back empty.
  // isomorphic-git's fetch and push speak v1 anyway.
  const info = await git.getRemoteInfo2({ http: target.http, url: target.url, protocolVersion: 1 });
  const wanted = fullRef(target.ref);
  return info.refs?.find((r) => r.ref === wanted)?.oid ?? null;
}

async function fetchRef({ gitdir, fs }: Session, target: RemoteTarget): Promise<void> {
  await git.fetch({
    fs,
    http: target.http,
    gitdir,
    url: target.url,
    ref: fullRef(target.ref),
    singleBranch: true,
    depth: 1,
    tags: false,
  });
}

/**
 * Every blob of a commit's tree, by path (submodules are skipped). Each tree object is read once
 * (a subtree reached by many paths, as in a crafted repository whose trees nest the same tree many
 * times over, is not read again), a tree inside itself is refused, and the entries visited, the
 * files and the time are bounded.
 */
async function treeEntries(session: Session, commit: string): Promise<Map<string, { oid: string; mode: string }>> {
  const { gitdir, fs } = session;
  const { commit: object } = await git.readCommit({ fs, gitdir, oid: commit });
  const out = new Map<string, { oid: string; mode: string }>();
  const trees = new Map<string, TreeEntry[]>();
  const ancestors = new Set<string>();
  let visited = 0;
  const walk = async (oid: string, prefix: string) => {
    if (ancestors.has(oid)) throw new GitSyncError(`the repository's tree ${oid} contains itself`);
    checkDeadline(session);
    let tree = trees.get(oid);
    if (!tree) {
      tree = (await git.readTree({ fs, gitdir, oid })).tree;
      trees.set(oid, tree);
    }
    ancestors.add(oid);
    for (const entry of tree) {
      if (++visited > GIT_LIMITS.treeEntries) {
        throw new GitSyncError(`the repository's tree has more than ${GIT_LIMITS.treeEntries} entries`);
      }
      const path = prefix ? `${prefix}/${entry.path}` : entry.path;
      if (entry.type === 'tree') await walk(entry.oid, path);
      else if (entry.type === 'blob') out.set(path, { oid: entry.oid, mode: entry.mode });
      if (out.size > GIT_LIMITS.files) throw new GitSyncError(`the repository has more than ${GIT_LIMITS.files} files`);
    }
    ancestors.delete(oid);
  };
  await walk(object.tree, '');
  return out;
}

export interface RemoteContent {
  commit: string;
  message: string;
  /** Path → blob id. */
  blobs: Map<string, string>;
  /** Path → bytes, only below `under` ('' for everything). */
  files: Map<string, Uint8Array>;
}

/** Reads the files of `ref` (those under `under`, within the repository limits). */
export async function readRemote(target: RemoteTarget, under = ''): Promise<RemoteContent> {
  const head = await remoteHead(target);
  if (!head) throw new GitSyncError(`the repository has no ref ${fullRef(target.ref)}`);
  return withGitdir(async (session) => {
    const { gitdir, fs } = session;
    await fetchRef(session, target);
    const files = new Map<string, Uint8Array>();
    const blobs = new Map<string, string>();
    let bytes = 0;
    for (const [path, entry] of await treeEntries(session, head)) {
      if (under && !path.startsWith(`${under}/`)) continue;
      checkDeadline(session);
      const { blob } = await git.readBlob({ fs, gitdir, oid: entry.oid });
      bytes += blob.byteLength;
      if (bytes > GIT_LIMITS.bytes) throw new GitSyncError(`the repository holds more than ${GIT_LIMITS.bytes} bytes`);
      files.set(path, blob);
      blobs.set(path, entry.oid);
    }
    const { commit } = await git.readCommit({ fs, gitdir, oid: head });
    return { commit: head, message: commit.message.trim(), blobs, files };
  });
}

export interface PushInput extends RemoteTarget {
  /** Path → bytes: the files to have in the commit. */
  files: Map<string, Uint8Array>;
  /** Paths of the parent commit that the export manages: removed when not in `files`. Others are kept. */
  managed: (path: string) => boolean;
  message: string;
  author: { name: string; email: string };
  force: boolean;
}

export interface PushResult {
  commit: string;
  /** False when the tree was already the same: nothing was committed. */
  changed: boolean;
  /** Path → blob id of every file written. */
  blobs: Map<string, string>;
}

/** Builds the tree objects of `entries` (path → blob) and returns the root tree's id. */
async function writeTrees(
  { gitdir, fs }: Session,
  entries: Map<string, { oid: string; mode: string }>,
): Promise<string> {
  interface Dir {
    blobs: TreeEntry[];
    dirs: Map<string, Dir>;
  }
  const top: Dir = { blobs: [], dirs: new Map() };
  for (const [path, entry] of entries) {
    const parts = path.split('/');
    const name = parts.pop() as string;
    let dir = top;
    for (const part of parts) {
      let next = dir.dirs.get(part);
      if (!next) {
        next = { blobs: [], dirs: new Map() };
        dir.dirs.set(part, next);
      }
      dir = next;
    }
    dir.blobs.push({ mode: entry.mode, path: name, oid: entry.oid, type: 'blob' });
  }
  const write = async (dir: Dir): Promise<string> => {
    const tree: TreeEntry[] = [...dir.blobs];
    for (const [name, child] of dir.dirs)
      tree.push({ mode: '040000', path: name, oid: await write(child), type: 'tree' });
    return git.writeTree({ fs, gitdir, tree });
  };
  return write(top);
}

/**
 * Commits `files` on top of the remote ref (a new branch when it does not exist) and pushes. A blob
 * whose bytes did not change keeps its id, so unchanged files are not rewritten; when the whole tree
 * is unchanged nothing is committed.
 */
export async function pushToRemote(input: PushInput): Promise<PushResult> {
  const head = await remoteHead(input);
  return withGitdir(async (session) => {
    const { gitdir, fs } = session;
    let entries = new Map<string, { oid: string; mode: string }>();
    let parentTree: string | null = null;
    if (head) {
      await fetchRef(session, input);
      entries = await treeEntries(session, head);
      parentTree = (await git.readCommit({ fs, gitdir, oid: head })).commit.tree;
    }
    for (const path of [...entries.keys()]) if (input.managed(path) && !input.files.has(path)) entries.delete(path);
    const blobs = new Map<string, string>();
    for (const [path, bytes] of input.files) {
      const oid = await git.writeBlob({ fs, gitdir, blob: bytes });
      blobs.set(path, oid);
      entries.set(path, { oid, mode: entries.get(path)?.mode ?? '100644' });
    }
    const tree = await writeTrees(session, entries);
    if (head && tree === parentTree) return { commit: head, changed: false, blobs };
    const now = Math.floor(Date.now() / 1000);
    const signature = { ...input.author, timestamp: now, timezoneOffset: 0 };
    const commit = await git.writeCommit({
      fs,
      gitdir,
      commit: { message: input.message, tree, parent: head ? [head] : [], author: signature, committer: signature },
    });
    const local = 'refs/heads/bindery-export';
    await git.writeRef({ fs, gitdir, ref: local, value: commit, force: true });
    const pushed = await git.push({
      fs,
      http: input.http,
      gitdir,
      url: input.url,
      ref: local,
      remoteRef: fullRef(input.ref),
      force: input.force,
    });
    const status = pushed.refs[fullRef(input.ref)];
    if (!pushed.ok || (status && !status.ok)) {
      throw new GitSyncError(`the repository refused the push: ${status?.error ?? pushed.error ?? 'unknown reason'}`);
    }
    return { commit, changed: true, blobs };
  });
}
