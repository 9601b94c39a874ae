import type { Static } from 'typebox';
import type { OpenapiSpecRow, OpenapiSpecVersionRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import type {
  OpenAPISpec,
  OpenAPISpecContent,
  OpenAPISpecVersion,
  ProcessErrorCode,
  ProcessingState,
  SpecVisibility,
} from './schemas.js';

const specPath = (spec: OpenapiSpecRow) => `/orgs/${spec.organization_id}/openapi/${encodeURIComponent(spec.slug)}`;
const appPath = (spec: OpenapiSpecRow) => `/o/${spec.organization_id}/openapi/${encodeURIComponent(spec.slug)}`;

export function specLocation(spec: OpenapiSpecRow, urls: Urls): string {
  return urls.api(specPath(spec));
}

/** The specification as a caller sees it; `canEdit` is their `permissions.edit`. */
export function presentSpec(spec: OpenapiSpecRow, canEdit: boolean, urls: Urls): Static<typeof OpenAPISpec> {
  return {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.created_at,
    updatedAt: spec.updated_at,
    slug: spec.slug,
    ...(spec.source_url !== null ? { sourceURL: spec.source_url } : {}),
    processingState: spec.processing_state as ProcessingState,
    ...(spec.last_version_id ? { lastVersion: spec.last_version_id } : {}),
    ...(spec.last_processed_at ? { lastProcessedAt: spec.last_processed_at } : {}),
    ...(spec.last_process_error_code ? { lastProcessErrorCode: spec.last_process_error_code as ProcessErrorCode } : {}),
    ...(spec.last_process_errors
      ? { lastProcessedErrors: JSON.parse(spec.last_process_errors) as { message: string }[] }
      : {}),
    lastProcessedErrorCount: spec.last_process_error_count,
    visibility: spec.visibility as SpecVisibility,
    permissions: { view: true, edit: canEdit },
    urls: { location: specLocation(spec, urls), app: urls.app(appPath(spec)) },
  };
}

function versionUrls(spec: OpenapiSpecRow, version: OpenapiSpecVersionRow, urls: Urls) {
  const path = `/versions/${version.id}`;
  return { location: urls.api(`${specPath(spec)}${path}`), app: urls.app(`${appPath(spec)}${path}`) };
}

/** Where the version's specification can be read: its source URL, or (for text) its content in this API. */
function versionUrl(spec: OpenapiSpecRow, version: OpenapiSpecVersionRow, urls: Urls): string {
  return version.url ?? `${versionUrls(spec, version, urls).location}/content`;
}

export function presentVersion(
  spec: OpenapiSpecRow,
  version: OpenapiSpecVersionRow,
  urls: Urls,
): Static<typeof OpenAPISpecVersion> {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.created_at,
    url: versionUrl(spec, version, urls),
    urls: versionUrls(spec, version, urls),
  };
}

/** The stored files of a version, as they were stored. */
export function presentContent(
  spec: OpenapiSpecRow,
  version: OpenapiSpecVersionRow,
  urls: Urls,
): Static<typeof OpenAPISpecContent> {
  const url = versionUrl(spec, version, urls);
  return {
    filesystem: JSON.parse(version.filesystem) as Record<string, unknown>,
    url,
    urls: { source: url, public: null },
  };
}
