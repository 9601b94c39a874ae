/**
 * The `openapi.process` job: loads the specification's current source and records the outcome.
 * Safe to run again from the start (a crash may interrupt it anywhere): it only ever writes in
 * the final transaction, and both outcomes are conditional on the source not having changed.
 */
import type { App } from '../../core/app.js';
import type { JobHandler } from '../../jobs/index.js';
import { loadSpecification, SpecLoadError } from './load.js';
import { type ProcessPayload, recordFailure, recordSuccess, startProcessing } from './repo.js';

export function processSpecJob(app: App): JobHandler<ProcessPayload> {
  return async (payload: ProcessPayload, { signal, log }) => {
    const spec = await startProcessing(app.db, payload.specId, payload.revision);
    if (!spec) {
      log.info({ specId: payload.specId }, 'OpenAPI specification deleted or changed since; nothing to do');
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
      const version = await recordSuccess(app.db, spec, payload.revision, loaded);
      log.info({ specId: spec.id, versionId: version?.id ?? null }, 'OpenAPI specification processed');
    } catch (error) {
      if (!(error instanceof SpecLoadError)) throw error;
      log.info({ specId: spec.id, code: error.code }, 'OpenAPI specification failed to process');
      await recordFailure(app.db, spec.id, payload.revision, error);
    }
  };
}
