/** The kinds and payload of the Git Sync jobs, shared by who queues them and who runs them (api/git/sync.ts). */

export const IMPORT_JOB = 'git.import';
export const EXPORT_JOB = 'git.export';

export interface GitJobPayload {
  spaceId: string;
  operationId: string;
}

/** Authenticated data bound to a sealed URL: it opens only for this space and operation. */
export function urlAad(spaceId: string, operationId: string): string {
  return `git:${spaceId}:${operationId}`;
}
