/** The official search results (SearchSpaceResult → SearchPageResult → SearchSectionResult). */
export interface SearchSectionResult {
  id: string;
  title: string;
  path?: string;
  body?: string;
  urls?: { app: string };
}

export interface SearchPageResult {
  id: string;
  title: string;
  description?: string;
  path?: string;
  urls?: { app: string };
  sections?: SearchSectionResult[];
}

export interface SearchSpaceResult {
  type: 'space';
  id: string;
  title: string;
  pages: SearchPageResult[];
}
