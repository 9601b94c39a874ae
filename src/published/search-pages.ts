/**
 * The search box of a published site: `~search?q=` (a results page, what the box opens without
 * JavaScript), `~search.json?q=` (the live results under the box) and, when the site's `aiSearch` is
 * on, `~ask?q=` (an answer from the site's content through the ask pipeline). All read the site's
 * spaces only.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { type AnswerState, answerQuestion } from '../ai/answer.js';
import { markdownToDocument } from '../content/markdown.js';
import { searchSpaces, snippet } from '../search/pages.js';
import { siteCustomization } from '../sites/customization.js';
import { securityHeaders } from './headers.js';
import type { SiteReader, SpaceContent } from './reader.js';
import { DocumentRenderer } from './render/document.js';
import type { Shell } from './render/layout.js';
import { renderSearchPage, type SearchHit } from './render/pages.js';

const MAX_QUERY = 512;
const HITS = 20;

const text = (value: string): ElementContent => ({ type: 'text', value });

async function contentsBySpace(reader: SiteReader): Promise<Map<string, SpaceContent>> {
  const bySpace = new Map<string, SpaceContent>();
  for (const content of await reader.allContents())
    if (!bySpace.has(content.space.id)) bySpace.set(content.space.id, content);
  return bySpace;
}

/** The hits of `query` on the site, as links on the site. */
export async function siteHits(reader: SiteReader, query: string): Promise<SearchHit[]> {
  const bySpace = await contentsBySpace(reader);
  const pages = await searchSpaces(
    reader.db,
    [...bySpace.values()].map((c) => c.space),
    query,
  );
  const several = bySpace.size > 1;
  // Hits on pages the visitor may not see (not in their view of the content) are left out before counting.
  const shown = pages.filter((page) => bySpace.get(page.spaceId)?.byId.has(page.pageId)).slice(0, HITS);
  return shown.flatMap((page) => {
    const content = bySpace.get(page.spaceId);
    const entry = content?.byId.get(page.pageId);
    if (!content || !entry) return [];
    const best = page.sections[0]?.passage;
    const anchor = page.resultType === 'section' && best?.anchor ? `#${encodeURIComponent(best.anchor)}` : '';
    const where = [several ? content.space.title : '', best?.heading ?? ''].filter(Boolean).join(' › ');
    return [
      {
        title: page.title,
        href: `${reader.pageHref(content, entry)}${anchor}`,
        path: where,
        snippet: best ? snippet(best.body, query) : '',
      },
    ];
  });
}

/** The answer to `query` from the site's spaces, rendered, with its sources as links on the site. */
/** What answering needs of the app (the model's settings, the log). */
export type AskSettings = Omit<Parameters<typeof answerQuestion>[0], 'db'>;

async function answer(settings: AskSettings, reader: SiteReader, query: string): Promise<ElementContent[]> {
  const bySpace = await contentsBySpace(reader);
  let last: AnswerState | undefined;
  for await (const state of answerQuestion(
    { ...settings, db: reader.db },
    {
      query,
      previousQueries: [],
      spaces: [...bySpace.values()].map((c) => c.space),
      // Pages hidden from this visitor (adaptive content) are no part of what answers them.
      readable: (spaceId, pageId) => bySpace.get(spaceId)?.byId.has(pageId) ?? false,
    },
  )) {
    last = state;
  }
  if (!last) return [];
  const first = [...bySpace.values()][0];
  const document = markdownToDocument(last.markdown);
  const body = first
    ? new DocumentRenderer({
        link: (ref) => reader.link(ref, first),
        file: () => null,
        highlighter: null,
        codeThemes: { light: 'github-light', dark: 'github-dark' },
        externalTarget: 'self',
      }).render(document.nodes).body
    : [h('p', [text(last.markdown)])];
  const sources = last.sources.flatMap((source) => {
    const content = bySpace.get(source.space);
    const entry = content?.byId.get(source.page);
    return content && entry
      ? [h('li', [h('a', { href: reader.pageHref(content, entry) }, [text(entry.page.title)])])]
      : [];
  });
  return [
    h('h2', [text('Answer')]),
    ...body,
    ...(sources.length > 0 ? [h('h3', [text('Sources')]), h('ul', sources)] : []),
  ];
}

export async function searchRoute(
  settings: AskSettings,
  _request: FastifyRequest,
  reply: FastifyReply,
  reader: SiteReader,
  name: string,
  query: URLSearchParams,
  shell: (content: SpaceContent | null) => Shell,
): Promise<FastifyReply> {
  const q = (query.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const aiSearch = siteCustomization(reader.model.site).aiSearch.enabled;
  const askHref = aiSearch && q ? `${reader.href('/~ask')}?${new URLSearchParams({ q })}` : undefined;
  reply.header('cache-control', 'private, no-cache');
  const hits = q ? await siteHits(reader, q) : [];
  if (name === '~search.json') {
    return reply.type('application/json; charset=utf-8').send({ results: hits, ...(askHref ? { ask: askHref } : {}) });
  }
  const siteSpace = reader.defaultSiteSpace(reader.defaultSection());
  const page = shell(siteSpace ? await reader.content(siteSpace) : null);
  securityHeaders(reply, 'page').type('text/html; charset=utf-8');
  if (name === '~ask' && !aiSearch) return reply.code(404).send(renderSearchPage(page, q, hits));
  const extra = name === '~ask' && q ? { answer: await answer(settings, reader, q) } : { askHref };
  return reply.send(renderSearchPage(page, q, hits, extra));
}
