/**
 * Everything the server runs in the background, in one place: the job worker, every job kind with
 * its handler, and every periodic task. Jobs are enqueued by the areas, in the transaction of the
 * change that needs them (`enqueue` of src/jobs); the handlers stay in their areas and are only
 * registered here. This file is at the root because it imports those areas, and jobs/ must not
 * (the areas import jobs/ to enqueue).
 *
 * Jobs run in every process with a worker (`JOB_CONCURRENCY` > 0, polling every `JOB_POLL_MS`);
 * periodic tasks too, once when the app is ready and then hourly (src/jobs/housekeeping.ts).
 */
import fp from 'fastify-plugin';
import { gitJob } from './api/git/sync.js';
import { processSpecJob } from './api/openapi/process.js';
import { PROCESS_JOB } from './api/openapi/repo.js';
import { translationRunJob } from './api/translations/job.js';
import { RUN_JOB as TRANSLATION_RUN_JOB } from './api/translations/run.js';
import { DELIVER_JOB } from './events/record.js';
import { purgeExpiredEvents } from './events/retention.js';
import { deliveryHandler } from './events/webhooks/deliver.js';
import { EXPORT_JOB, IMPORT_JOB } from './git/jobs.js';
import type { App } from './http/app.js';
import { purgeExpiredInsightEvents } from './insights/retention.js';
import { scheduleHousekeeping } from './jobs/housekeeping.js';
import { JobWorker } from './jobs/index.js';
import { purgeFinishedJobs } from './jobs/retention.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background job worker (its handlers are the ones registered below). */
    jobs: JobWorker;
  }
}

async function registerBackground(app: App): Promise<void> {
  const { db, config } = app;
  const jobs = new JobWorker(db, app.log, {
    concurrency: config.jobConcurrency,
    pollMs: config.jobPollMs,
    leaseMs: config.jobLeaseMs,
  });
  app.decorate('jobs', jobs);
  // Started once every plugin is registered (and after the server data every job may need is made:
  // that onReady hook comes first, see app.ts). onClose hooks run in reverse order, so this one stops
  // the worker (and gives its jobs back) before the database is closed, and after the periodic tasks.
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());

  // Job kinds, each with its handler.
  // openapi.process: loads an OpenAPI specification's source and records its versions (api/openapi).
  jobs.register(PROCESS_JOB, processSpecJob(app));
  // git.import, git.export: Git Sync of a space (api/git).
  jobs.register(IMPORT_JOB, gitJob(app, 'import'));
  jobs.register(EXPORT_JOB, gitJob(app, 'export'));
  // translation.run: translates a space into the target languages' spaces through the model (api/translations).
  jobs.register(TRANSLATION_RUN_JOB, translationRunJob(app));
  // webhook.deliver: signs and POSTs one event to one webhook, retried with backoff (src/webhooks).
  jobs.register(DELIVER_JOB, deliveryHandler(app));

  // Periodic tasks, hourly, in processes with a worker. Each is scheduled after the worker's hooks,
  // so on close a purge in progress stops at its next batch before the worker and the database do.
  scheduleHousekeeping(app, {
    failureMessage: 'could not purge finished jobs',
    run: (signal) => purgeFinishedJobs(db, { signal }),
  });
  scheduleHousekeeping(app, {
    failureMessage: 'could not purge expired events',
    run: (signal) => purgeExpiredEvents(db, config.auditRetentionDays, { signal }),
  });
  scheduleHousekeeping(app, {
    failureMessage: 'could not purge expired insight events',
    run: (signal) => purgeExpiredInsightEvents(db, config.insightsRetentionDays, { signal }),
  });
}

/** Decorates `app.jobs` (the worker), registers every job handler and schedules every periodic task. */
export const background = fp(registerBackground, { name: 'bindery-background', dependencies: ['bindery-context'] });
