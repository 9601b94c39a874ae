import { Type } from 'typebox';
import { PageQuery } from '../../../lib/paging.js';
import { StringEnum } from '../../../lib/schemas.js';

export const ADS_TOPICS = ['webdev', 'crypto'] as const;
export const REVIEW_STATUSES = ['in-review', 'live', 'rejected'] as const;

export const AdsSiteItem = Type.Object({
  id: Type.String(),
  url: Type.String(),
  email: Type.String(),
  topic: StringEnum(ADS_TOPICS),
  status: StringEnum(REVIEW_STATUSES),
  zoneId: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
});

export const ListAdsSitesQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(StringEnum(REVIEW_STATUSES, { default: 'in-review' })),
});

export const PartnerUpdateBody = Type.Union([
  Type.Object(
    {
      status: Type.Literal('live'),
      zoneId: Type.String({ minLength: 1, maxLength: 256 }),
      reportingId: Type.String({ minLength: 1, maxLength: 256 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { status: Type.Literal('rejected'), reason: Type.Optional(Type.String({ maxLength: 512 })) },
    { additionalProperties: false },
  ),
  Type.Object({ status: Type.Literal('pending') }, { additionalProperties: false }),
]);

export const SubmitAdsBody = Type.Object(
  {
    status: Type.Optional(StringEnum(['in-review', 'disabled'] as const)),
    topic: Type.Optional(StringEnum(ADS_TOPICS)),
  },
  { additionalProperties: false },
);
