/** Table types of site insights (0014_site_insights). Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

/** One event of a published site (`SiteInsightsEvent`), with the fields aggregations group by. */
export interface SiteInsightEventsTable {
  id: string;
  site_id: string;
  /** `SiteInsightsEventType`. */
  type: string;
  /** When the event happened (the event's `timestamp`, or when it was received). */
  occurred_at: string;
  /** Monday 00:00 UTC of the ISO week of `occurred_at` (`datetime` by week). */
  week_start: string;
  /** 1 (Monday) to 7 (Sunday), UTC. */
  day_of_week: number;
  /** 0 to 23, UTC. */
  hour_of_day: number;
  session_id: string;
  visitor_id: string | null;
  url: string;
  /** The path of `url` (what `urlPath` groups by). */
  url_path: string;
  /** `SiteInsightsDisplayContext`. */
  display_context: string;
  site_section_id: string | null;
  site_space_id: string | null;
  site_share_key: string | null;
  space_id: string | null;
  revision_id: string | null;
  page_id: string | null;
  /** `good`, `ok` or `bad` for page feedback events. */
  feedback_rating: string | null;
  feedback_comment: string | null;
  /** JSON: the rest of the event (query, link, operation, ad, session details). */
  data: string;
  created_at: string;
}

export type SiteInsightEventRow = Selectable<SiteInsightEventsTable>;
