import { describe, expect, it } from 'vitest';
import { type Change, ConflictError, SaveQueue } from './save-queue';

/** As the API client's ApiError (which needs the browser to import). */
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A fake change request: at `revision`, refusing (412) an If-Match naming another. */
function server(start: string) {
  const state = { revision: start, sent: [] as { changes: Change[]; ifMatch: string }[], n: 0 };
  const send = async (changes: Change[], ifMatch: string) => {
    state.sent.push({ changes, ifMatch });
    await new Promise((r) => setTimeout(r, 1));
    if (ifMatch !== `"${state.revision}"`) throw new ApiError(412, 'changed');
    state.n += 1;
    state.revision = `r${state.n}`;
    return { revision: state.revision };
  };
  return { state, send };
}

const edit = (text: string): Change => ({ operation: 'update_page', page: 'p', title: text });

describe('SaveQueue', () => {
  it('sends one batch at a time, each with the revision the previous one produced', async () => {
    const { state, send } = server('r0');
    const queue = new SaveQueue(send, 'r0');
    await Promise.all([queue.run([edit('a')]), queue.run([edit('b')]), queue.run([edit('c')])]);
    expect(state.sent.map((s) => s.ifMatch)).toEqual(['"r0"', '"r1"', '"r2"']);
    expect(queue.revision).toBe('r3');
  });

  it('stops on a 412: that batch and those queued after it reject unsent until adopt', async () => {
    const { state, send } = server('r0');
    const queue = new SaveQueue(send, 'r0');
    state.revision = 'theirs';
    const first = queue.run([edit('a')]);
    const second = queue.run([edit('b')]);
    await expect(first).rejects.toBeInstanceOf(ConflictError);
    await expect(second).rejects.toBeInstanceOf(ConflictError);
    expect(state.sent).toHaveLength(1);
    expect(queue.stopped).toBe(true);
    queue.adopt('theirs');
    await expect(queue.run([edit('a')])).resolves.toEqual({ revision: 'r1' });
    expect(state.sent.at(-1)?.ifMatch).toBe('"theirs"');
  });

  it('passes other errors on and keeps going', async () => {
    const queue = new SaveQueue(async () => {
      throw new ApiError(400, 'bad');
    }, 'r0');
    await expect(queue.run([edit('a')])).rejects.toThrow('bad');
    expect(queue.stopped).toBe(false);
  });
});
