/** A Git operation that cannot go on: its message becomes the operation's `error`. */
export class GitSyncError extends Error {
  override name = 'GitSyncError';
}
