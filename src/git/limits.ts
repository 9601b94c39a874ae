/**
 * Every bound of a Git operation, in one place: what one import reads (files, bytes, objects,
 * tree entries, time) and what one HTTP request may receive. An operation beyond one fails with a
 * message naming it (recorded as the operation's `error`).
 */
const MiB = 1024 * 1024;

export const GIT_LIMITS = {
  /** Files (blobs) in the tree of the ref read. */
  files: 5000,
  /** Bytes of the files read (those under the project directory). */
  bytes: 100 * MiB,
  /** Objects in a received pack (commits, trees, blobs, deltas), from its header, before any is inflated. */
  packObjects: 20_000,
  /**
   * Bytes of every object of a pack once inflated (a delta by the size it declares for its result),
   * counted while inflating off the event loop, before isomorphic-git reads the pack.
   */
  packInflatedBytes: 128 * MiB,
  /** Tree entries visited walking the tree (a subtree reached by several paths counts each time). */
  treeEntries: 50_000,
  /** Bytes of one HTTP response (a pack), counted while it is received. */
  responseBytes: 100 * MiB,
  /** One HTTP request. */
  requestMs: 120_000,
  /** A whole read of the repository: fetch, tree walk and files. */
  readMs: 300_000,
} as const;
