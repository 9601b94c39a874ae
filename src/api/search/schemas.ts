/** Content search: the official `searchOrganizationContent` and `searchSpaceContent` parameters and answers. */
import { Type } from 'typebox';
import { PagedList, PageQuery } from '../../lib/paging.js';
import { Params } from '../../lib/schemas.js';
import { SearchPageResult, SearchSpaceResult } from '../../lib/search-schemas.js';

/** The official limit of `query` (characters). */
export const MAX_QUERY = 512;

export const SearchQuery = Type.Object({
  query: Type.String({
    minLength: 1,
    maxLength: MAX_QUERY,
    // Not only spaces: a blank query is a mistake, not a search for everything.
    pattern: '\\S',
    description: 'What to search for: words, a phrase, part of a word (3+ letters) or text without spaces (CJK)',
  }),
  ...PageQuery,
});

export const OrganizationSearchParams = Type.Object({ organizationId: Params.organizationId });
export const SpaceSearchParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });

export const OrganizationSearchResults = PagedList(SearchSpaceResult);
export const SpaceSearchResults = PagedList(SearchPageResult);
