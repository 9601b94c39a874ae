/** Every migration, in the order it runs. Add new ones at the end with the next number. */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_spaces_collections.js';
import * as m0003 from './0003_sites.js';
import * as m0004 from './0004_content.js';
import * as m0005 from './0005_openapi_translations.js';
import * as m0006 from './0006_integrations.js';
import * as m0007 from './0007_search.js';
import * as m0008 from './0008_ads.js';
import * as m0009 from './0009_site_publishing.js';
import * as m0010 from './0010_git_sync.js';
import * as m0011 from './0011_idempotency_keys.js';
import * as m0012 from './0012_events.js';
import * as m0013 from './0013_reviews_comments.js';
import * as m0014 from './0014_site_insights.js';
import * as m0015 from './0015_member_search.js';
import * as m0016 from './0016_events_by_id.js';
import * as m0017 from './0017_insight_events_by_time.js';
import * as m0018 from './0018_jobs_by_finish.js';
import * as m0019 from './0019_space_first_revisions.js';
import * as m0020 from './0020_idempotency_sealed.js';
import * as m0021 from './0021_tenancy_hostnames.js';
import * as m0022 from './0022_sessions.js';
import * as m0023 from './0023_sso.js';
import * as m0024 from './0024_invite_links.js';
import * as m0025 from './0025_search_substrings.js';
import * as m0027 from './0027_change_request_update.js';
import * as m0028 from './0028_site_access.js';
import * as m0029 from './0029_invite_link_targets.js';
import * as m0030 from './0030_site_links_adaptive.js';
import * as m0031 from './0031_storage_uploads_translation_runs.js';
import * as m0032 from './0032_search_cjk_pairs.js';
import * as m0033 from './0033_autosave_content_lists.js';
import * as m0034 from './0034_search_words.js';

export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_spaces_collections': m0002,
  '0003_sites': m0003,
  '0004_content': m0004,
  '0005_openapi_translations': m0005,
  '0006_integrations': m0006,
  '0007_search': m0007,
  '0008_ads': m0008,
  '0009_site_publishing': m0009,
  '0010_git_sync': m0010,
  '0011_idempotency_keys': m0011,
  '0012_events': m0012,
  '0013_reviews_comments': m0013,
  '0014_site_insights': m0014,
  '0015_member_search': m0015,
  '0016_events_by_id': m0016,
  '0017_insight_events_by_time': m0017,
  '0018_jobs_by_finish': m0018,
  '0019_space_first_revisions': m0019,
  '0020_idempotency_sealed': m0020,
  '0021_tenancy_hostnames': m0021,
  '0022_sessions': m0022,
  '0025_search_substrings': m0025,
  '0023_sso': m0023,
  '0024_invite_links': m0024,
  '0027_change_request_update': m0027,
  '0028_site_access': m0028,
  '0029_invite_link_targets': m0029,
  '0030_site_links_adaptive': m0030,
  '0031_storage_uploads_translation_runs': m0031,
  '0032_search_cjk_pairs': m0032,
  '0033_autosave_content_lists': m0033,
  '0034_search_words': m0034,
};
