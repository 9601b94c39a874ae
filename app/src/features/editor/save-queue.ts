/**
 * Every write the editor makes to a change request (the page's body and title, the page tree's
 * operations) goes through one queue: one batch at a time, each sent with `If-Match` naming the
 * revision this session last saw, which the answer then advances. So a write of someone else's
 * between two of ours is never overwritten: it is a 412, which stops the queue until the person
 * decides (reload theirs, or keep theirs and re-apply mine on top: `adopt(revision)` then retry).
 * A 412 is recognised by the error's `status` (the API client's `ApiError`), so this file stays free
 * of the browser.
 */
export type Change = Record<string, unknown> & { operation: string };

export interface BatchAnswer {
  revision: string;
  changes?: { object: string; page?: { id: string } | string; ref?: string }[];
  /** The files an `insert_files` added (their ids). */
  insertedFiles?: { id: string; downloadURL?: string }[];
}

export type SendBatch = (changes: Change[], ifMatch: string) => Promise<BatchAnswer>;

export class ConflictError extends Error {
  constructor(readonly changes: Change[]) {
    super('Someone else changed this change request since it was opened here');
    this.name = 'ConflictError';
  }
}

export class SaveQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private blocked = false;

  constructor(
    private readonly send: SendBatch,
    private known: string,
  ) {}

  /** The change request's revision as this session last saw it. */
  get revision(): string {
    return this.known;
  }

  /** Whether a conflict stops the queue (until {@link adopt}). */
  get stopped(): boolean {
    return this.blocked;
  }

  /**
   * Sends `changes` after every batch queued before them. Rejects with a {@link ConflictError}
   * when the change request moved (and for every batch queued behind it, unsent), or the API's error.
   */
  run(changes: Change[]): Promise<BatchAnswer> {
    const next = this.tail.then(async () => {
      if (this.blocked) throw new ConflictError(changes);
      try {
        const answer = await this.send(changes, `"${this.known}"`);
        this.known = answer.revision;
        return answer;
      } catch (error) {
        if ((error as { status?: unknown } | null)?.status === 412) {
          this.blocked = true;
          throw new ConflictError(changes);
        }
        throw error;
      }
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Takes `revision` as seen (after a reload, or to write mine over theirs) and restarts the queue. */
  adopt(revision: string): void {
    this.known = revision;
    this.blocked = false;
  }
}
