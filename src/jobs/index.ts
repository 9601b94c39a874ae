/**
 * Durable background jobs kept in the database: `enqueue()` in the transaction that makes the
 * change (the worker is woken once it commits: src/jobs/wake.ts), and a handler for its kind,
 * registered on the app's worker (`app.jobs`) in src/background.ts.
 */
export { enqueue, MAX_ATTEMPTS } from './queue.js';
export { type JobContext, type JobHandler, JobWorker } from './worker.js';
