/**
 * Durable background jobs kept in the database: `enqueue()` in the transaction that makes the
 * change, a handler registered on the app's worker (`app.jobs.register(kind, handler)`), then
 * `app.jobs.wake()` after the commit.
 */
export { enqueue, MAX_ATTEMPTS } from './queue.js';
export { type JobContext, type JobHandler, JobWorker } from './worker.js';
