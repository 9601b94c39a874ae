/**
 * The official search result shapes (`SearchSpaceResult`, `SearchPageResult`, `SearchSectionResult`),
 * answered by `searchSiteContent`, `searchOrganizationContent` and `searchSpaceContent`.
 */
import { Type } from 'typebox';
import { StringEnum, Url } from './schemas.js';

const Score = Type.Number({ minimum: 0 });
const ResultType = StringEnum(['page', 'section'] as const);

export const SearchSectionResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  score: Score,
  resultType: Type.Optional(ResultType),
  body: Type.String(),
  urls: Type.Object({ app: Url }),
});

export const SearchPageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  path: Type.String(),
  score: Score,
  rank: Type.Integer({ minimum: 1, description: 'One-based position in the whole ranked result, kept across pages' }),
  resultType: Type.Optional(ResultType),
  sections: Type.Optional(Type.Array(SearchSectionResult)),
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  urls: Type.Object({ app: Url }),
});

export const SearchSpaceResult = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Score,
  pages: Type.Array(SearchPageResult),
});
