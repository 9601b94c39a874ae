/**
 * Schemas of the site insights operations, as the official document gives them
 * (`SiteInsightsEvent`, `SiteInsightsQueryEventsAggregation` and their parts). Each event type is one
 * flat object (the official `allOf` of the base and the type's fields), so unknown fields stay a 400.
 */
import { type TProperties, Type } from 'typebox';
import { NullableString } from '../api/sites/shared/schemas.js';
import { StringEnum, Timestamp, Url } from '../lib/schemas.js';

/** At most this many events per `trackEventsInSiteById` request. */
export const MAX_EVENTS_PER_REQUEST = 100;
/** The longest text field kept (queries, ids), so one event stays small. */
const Text = Type.String({ maxLength: 2048 });
const IdText = Type.String({ minLength: 1, maxLength: 256 });
const NullableId = NullableString(Type.String({ maxLength: 256 }));

export const EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const RATINGS = ['bad', 'ok', 'good'] as const;
export type Rating = (typeof RATINGS)[number];
export const PageFeedbackRating = StringEnum(RATINGS);
export const DISPLAY_CONTEXTS = ['site', 'server', 'embed', 'mcp'] as const;
export const DisplayContext = StringEnum(DISPLAY_CONTEXTS);
/** The official `comment` bounds of `page_post_feedback_comment`. */
export const COMMENT_MAX = 512;

const Session = Type.Object(
  {
    visitorId: IdText,
    sessionId: IdText,
    cookies: Type.Record(Type.String(), Type.String({ maxLength: 4096 })),
    ip: Type.Optional(Type.String({ maxLength: 64 })),
    userAgent: Type.String({ maxLength: 1024 }),
    language: NullableString(Type.String({ maxLength: 64 })),
    referrer: Type.Union([Type.Null(), Type.Literal(''), Url]),
    visitorAuthToken: Type.Optional(NullableString(Type.String({ maxLength: 8192 }))),
    visitorAuthClaims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

const Location = Type.Object(
  {
    url: Url,
    displayContext: Type.Optional(DisplayContext),
    siteSection: NullableId,
    siteSpace: NullableId,
    siteShareKey: NullableId,
    space: NullableId,
    revision: NullableId,
    page: NullableId,
  },
  { additionalProperties: false },
);

const OperationPointer = Type.Object({ path: Text, method: Type.String({ maxLength: 16 }) });
const Ad = Type.Object({ domain: Text, zoneId: IdText, placement: StringEnum(['aside']) });
const ContentRefAny = Type.Object(
  { kind: Type.String({ maxLength: 32 }) },
  { additionalProperties: Type.String({ maxLength: 2048 }) },
);

function event<T extends EventType>(type: T, fields: TProperties = {}) {
  return Type.Object(
    {
      type: Type.Literal(type),
      session: Session,
      location: Location,
      timestamp: Type.Optional(Timestamp),
      ...fields,
    },
    { additionalProperties: false },
  );
}

export const SiteInsightsEvent = Type.Union([
  event('page_view'),
  event('page_markdown_request', { markdownSource: Type.Optional(StringEnum(['page-action'])) }),
  event('search_open'),
  event('search_type_query', { query: Text }),
  event('search_open_result', {
    query: Text,
    result: Type.Union([Type.Object({ spaceId: IdText, pageId: IdText }), Type.Object({ recordId: IdText })]),
  }),
  event('page_post_feedback', {
    feedback: Type.Object({ rating: PageFeedbackRating }, { additionalProperties: false }),
  }),
  event('page_post_feedback_comment', {
    feedback: Type.Object(
      { rating: PageFeedbackRating, comment: Type.String({ minLength: 1, maxLength: COMMENT_MAX }) },
      { additionalProperties: false },
    ),
  }),
  event('agent_feedback'),
  event('ask_question', { query: Text, goal: Type.Optional(Text) }),
  event('ask_view'),
  event('ask_rate_response', {
    query: Text,
    rating: Type.Union([Type.Literal(1), Type.Literal(-1)]),
    responseId: IdText,
  }),
  event('link_click', {
    link: Type.Object({
      target: ContentRefAny,
      position: StringEnum(['announcement', 'header', 'footer', 'sidebar', 'content']),
    }),
  }),
  event('api_client_open', { operation: OperationPointer }),
  event('api_client_request', { operation: OperationPointer }),
  event('ad_click', { ad: Ad }),
  event('ad_display', { ad: Ad }),
  event('trademark_click'),
  event('llms_request', { llmsVariant: StringEnum(['standard', 'full']) }),
  event('mcp_request'),
  event('rss_request'),
]);

export const TrackEventsBody = Type.Object(
  { events: Type.Array(SiteInsightsEvent, { maxItems: MAX_EVENTS_PER_REQUEST }) },
  { additionalProperties: false },
);

/** An event as the service receives it (the route's body, or the published site's feedback form). */
export interface InsightEventInput {
  type: EventType;
  session: { sessionId: string; visitorId?: string | null; language?: string | null; referrer?: string | null };
  location: {
    url: string;
    displayContext?: (typeof DISPLAY_CONTEXTS)[number];
    siteSection: string | null;
    siteSpace: string | null;
    siteShareKey: string | null;
    space: string | null;
    revision: string | null;
    page: string | null;
  };
  timestamp?: string;
  feedback?: { rating: Rating; comment?: string };
  [field: string]: unknown;
}

// ---- aggregateSiteEvents ----

/** Every column of the official `SiteInsightsQueryEventsColumn`; which ones Bindery computes is `columns.ts`'s. */
export const COLUMN_NAMES = [
  'datetime',
  'dayOfWeek',
  'hourOfDay',
  'url',
  'urlPath',
  'eventType',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'siteSection',
  'siteSpace',
  'siteShareKey',
  'displayContext',
  'page',
  'visitorGeoCountry',
  'visitorGeoPoint',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorBot',
  'visitorLanguage',
  'eventLinkTargetValue',
  'eventLinkTargetKind',
  'eventLinkTargetDomain',
  'eventLinkPosition',
  'eventAPIOperationPath',
  'eventAPIOperationMethod',
  'eventLLMSVariant',
  'eventPageNotFoundType',
  'eventMarkdownSource',
  'eventSearchQuery',
  'eventSearchResultRecordId',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'eventAskResponseRating',
  'pageFeedbackRating',
  'askResponseRating',
  'referrer',
  'referrerDomain',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'visitorAuthenticated',
  'visitorClaimProperty',
  'visitorClaim',
  'eventAdDomain',
  'eventAdPlacement',
  'eventTrademarkPlacement',
] as const;
export type ColumnName = (typeof COLUMN_NAMES)[number];

/**
 * A column of a query. One object with the official extra fields (`interval` of `datetime`,
 * `precision` of `visitorGeoPoint`, `claim` of `visitorClaim`), each checked against its column by
 * the service: the official per-column `oneOf` would turn any mistake into a wall of branch errors.
 */
export const QueryColumn = Type.Object(
  {
    column: StringEnum(COLUMN_NAMES),
    interval: Type.Optional(StringEnum(['hour', 'day', 'week', 'month'])),
    precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })),
    claim: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const OPERATORS = ['in', 'notIn', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'] as const;
export type Operator = (typeof OPERATORS)[number];

export const QueryFilter = Type.Object(
  {
    column: StringEnum(COLUMN_NAMES),
    claim: Type.Optional(Type.String({ maxLength: 256 })),
    operator: Type.Optional(StringEnum(OPERATORS)),
    values: Type.Array(Type.Unknown(), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export const RANGE_PRESETS = ['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours'] as const;

export const AggregateBody = Type.Object(
  {
    select: Type.Optional(Type.Array(QueryColumn, { maxItems: 50 })),
    where: Type.Optional(Type.Array(QueryFilter, { maxItems: 50 })),
    groupBy: Type.Optional(Type.Array(QueryColumn, { maxItems: 10 })),
    order: Type.Optional(
      Type.Object({ by: QueryColumn, direction: StringEnum(['asc', 'desc']) }, { additionalProperties: false }),
    ),
    range: Type.Union([
      StringEnum(RANGE_PRESETS),
      Type.Object({ from: Timestamp, to: Timestamp }, { additionalProperties: false }),
    ]),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000 })),
  },
  { additionalProperties: false },
);

export const AggregateResult = Type.Object({
  columns: Type.Array(
    Type.Object({
      column: Type.String(),
      values: Type.Array(Type.Unknown()),
    }),
  ),
});
