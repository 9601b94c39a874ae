/**
 * The `openapi.process` job: loads the specification's current source and records the outcome.
 * Safe to run again from the start (a crash may interrupt it anywhere): it only ever writes in
 * the final transaction, both outcomes are conditional on the source not having changed, and a
 * revision whose outcome is recorded is not processed again.
 */

import { type ServiceContext, SYSTEM_ACTOR } from '../../core/service.js';
import type { App } from '../../http/app.js';
import type { JobHandler } from '../../jobs/index.js';
import { loadSpecification, SpecLoadError } from './load.js';
import type { ProcessPayload } from './repo.js';
import { recordSpecFailed, recordSpecProcessed, startSpecProcessing } from './service.js';

export function processSpecJob(app: App): JobHandler<ProcessPayload> {
  // The job records its outcome as the system, through the area's service functions.
  const ctx: ServiceContext = { db: app.db, urls: app.urls, actor: SYSTEM_ACTOR };
  return async (payload: ProcessPayload, { signal, log }) => {
    const spec = await startSpecProcessing(ctx, payload.specId, payload.revision);
    if (!spec) {
      log.info(
        { specId: payload.specId },
        'OpenAPI specification deleted, changed since, or this revision already processed; nothing to do',
      );
      return;
    }
    const source = spec.source_url !== null ? { url: spec.source_url } : { text: spec.source_text ?? '' };
    try {
      const loaded = await loadSpecification(source, {
        allowPrivate: app.config.fetchAllowPrivate,
        timeoutMs: app.config.fetchTimeoutMs,
        maxBytes: app.config.fetchMaxBytes,
        signal,
      });
      const version = await recordSpecProcessed(ctx, spec, payload.revision, loaded);
      log.info({ specId: spec.id, versionId: version?.id ?? null }, 'OpenAPI specification processed');
    } catch (error) {
      if (!(error instanceof SpecLoadError)) throw error;
      log.info({ specId: spec.id, code: error.code }, 'OpenAPI specification failed to process');
      await recordSpecFailed(ctx, spec.id, payload.revision, error);
    }
  };
}
