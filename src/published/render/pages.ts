/**
 * The pages of a published site: a content page, the 404 page in the site's look, the search
 * results page, and the bare pages shown when the site itself may not be shown (404, 401), which
 * reveal nothing of it.
 */
import type { ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import type { Block, ContentRef } from '../../content/document.js';
import { expandIncludes } from '../../content/includes.js';
import { extractLinks } from '../../content/links.js';
import { type FlatPage, getDocuments } from '../../content/store.js';
import { editUrl, pageFilePath } from '../../git/layout.js';
import { pageLabel, type SpaceContent } from '../reader.js';
import { codeLanguages, DocumentRenderer } from './document.js';
import { codeThemes, prepareHighlighter } from './highlight.js';
import { type PageParts, renderShell, type Shell, siteTitle } from './layout.js';
import { breadcrumbs, pageTree, pagination } from './nav.js';

const text = (value: string): ElementContent => ({ type: 'text', value });

/** References of the customization (header, footer, announcement), to load the spaces they name. */
export function customizationRefs(shell: Pick<Shell, 'customization'>): ContentRef[] {
  const c = shell.customization;
  const links = [
    ...c.header.links.flatMap((l) => [...(l.to ? [l.to] : []), ...l.links.map((s) => s.to)]),
    ...c.footer.groups.flatMap((g) => g.links.map((l) => l.to)),
    ...(c.announcement?.link ? [c.announcement.link.to] : []),
  ];
  return links.filter((to): to is ContentRef => ['page', 'anchor', 'file'].includes(to.kind));
}

/** The absolute URL of `path` on the site as the reader reached it. */
export type Absolute = (path: string) => string;

/** A content page. */
export async function renderContentPage(
  shell: Shell,
  content: SpaceContent,
  entry: FlatPage,
  absolute: Absolute,
): Promise<string> {
  const { reader, customization: c } = shell;
  const page = entry.page;
  const document = page.document ? (await getDocuments(reader.db, [page.document])).get(page.document) : undefined;
  const nodes: Block[] = await expandIncludes(reader.db, content.snapshot, document?.nodes ?? []);
  await reader.preload([...extractLinks({ nodes }).map((l) => l.ref), ...customizationRefs(shell)], content);
  const languages = codeLanguages(nodes);
  const themes = codeThemes(c.styling.codeTheme.default);
  const highlighter = languages.size > 0 ? await prepareHighlighter(languages, themes) : null;
  const rendered = new DocumentRenderer({
    link: (ref) => reader.link(ref, content),
    file: (ref) => reader.file(ref, content),
    highlighter,
    codeThemes: themes,
    externalTarget: c.externalLinks.target,
  }).render(nodes);

  const trail = breadcrumbs(reader, content, entry);
  const actions: ElementContent[] = [];
  if (c.pageActions.items.includes('markdown')) {
    actions.push(
      h('a', { href: reader.markdownHref(content, entry), type: 'text/markdown' }, [text('View as Markdown')]),
    );
  }
  const sync = c.git.showEditLink ? reader.model.gitSync.get(content.space.id) : undefined;
  const edit = sync ? editUrl(sync, pageFilePath(entry)) : null;
  if (edit && sync) {
    const host = sync.provider === 'gitlab' ? 'GitLab' : 'GitHub';
    actions.push(h('a.edit-link', { href: edit, rel: 'noopener' }, [text(`Edit on ${host}`)]));
  }
  const pager = c.pagination.enabled ? pagination(reader, content, entry) : null;
  const feedback = c.feedback.enabled ? feedbackControl(shell, content, entry) : null;
  const main: ElementContent[] = [
    ...(trail ? [trail] : []),
    h('article', [
      h('h1.page-title', [text(pageLabel(page))]),
      ...(page.description ? [h('p.page-description', [text(page.description)])] : []),
      ...(actions.length > 0 ? [h('div.page-actions', actions)] : []),
      ...rendered.body,
    ]),
    ...(feedback ? [feedback] : []),
    ...(pager ? [pager] : []),
  ];
  const parts: PageParts = {
    title: page.title,
    description: page.description,
    canonical: absolute(reader.pagePath(content, entry)),
    sidebar: pageTree(reader, content, entry),
    main,
    toc: rendered.toc,
  };
  return renderShell(shell, parts);
}

/**
 * "Was this page helpful?": a form posting to `~feedback` (which answers 303 back to
 * `#feedback-thanks`, shown by the stylesheet), enhanced by the site script (sent in the background,
 * then an optional comment).
 */
function feedbackControl(shell: Shell, content: SpaceContent, entry: FlatPage): ElementContent {
  const { reader } = shell;
  const choice = (rating: string, label: string) =>
    h('button', { type: 'submit', name: 'rating', value: rating }, [text(label)]);
  return h('div.page-feedback', [
    h('form.feedback', { method: 'post', action: reader.href('/~feedback'), 'aria-labelledby': 'feedback-question' }, [
      h('input', { type: 'hidden', name: 'page', value: reader.pagePath(content, entry) }),
      h('span#feedback-question', [text('Was this page helpful?')]),
      choice('good', 'Yes'),
      choice('ok', 'Somewhat'),
      choice('bad', 'No'),
    ]),
    h('p#feedback-thanks.feedback-thanks', { role: 'status' }, [text('Thank you for your feedback!')]),
  ]);
}

/** The 404 page in the site's look (with its navigation when the path was inside a site space). */
export async function renderMissingPage(shell: Shell): Promise<string> {
  const { reader, content } = shell;
  if (content) await reader.preload(customizationRefs(shell), content);
  return renderShell(shell, {
    title: 'Page not found',
    sidebar: content ? pageTree(reader, content, null) : null,
    main: [
      h('div.error-page', [
        h('h1', [text('Page not found')]),
        h('p', [text('The page you are looking for does not exist or has moved.')]),
        h('p', [h('a', { href: reader.href('') }, [text(`Go to ${siteTitle(shell)}`)])]),
      ]),
    ],
  });
}

export interface SearchHit {
  title: string;
  href: string;
  /** Where the hit is: the page's ancestors, or the section heading. */
  path: string;
  snippet: string;
}

/** The search results page (what the search box opens without JavaScript), with an answer when asked. */
export function renderSearchPage(
  shell: Shell,
  query: string,
  hits: SearchHit[],
  extra: { askHref?: string; answer?: ElementContent[] } = {},
): string {
  const main: ElementContent[] = [
    h('h1.page-title', [text(query ? `Results for “${query}”` : 'Search')]),
    ...(extra.answer ? [h('section.answer', { 'aria-label': 'Answer' }, extra.answer)] : []),
    ...(extra.askHref && !extra.answer
      ? [h('p', [h('a', { href: extra.askHref }, [text(`Ask a question: “${query}”`)])])]
      : []),
    hits.length > 0
      ? h(
          'ol.results',
          hits.map((hit) =>
            h('li', [
              h('a', { href: hit.href }, [text(hit.title)]),
              ...(hit.path ? [h('p', [h('small', [text(hit.path)])])] : []),
              ...(hit.snippet ? [h('p', [text(hit.snippet)])] : []),
            ]),
          ),
        )
      : h('p', [text(query ? 'No results.' : 'Type words to search for.')]),
  ];
  return renderShell(shell, { title: query ? `Search: ${query}` : 'Search', main });
}

/** A page that says only `heading` (404 of an unknown or closed site, 401 without a valid visitor token). */
export function renderBarePage(heading: string, message: string): string {
  return toHtml({
    type: 'root',
    children: [
      { type: 'doctype' },
      h('html', { lang: 'en' }, [
        h('head', [
          h('meta', { charSet: 'utf-8' }),
          h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
          h('meta', { name: 'robots', content: 'noindex' }),
          h('title', [text(heading)]),
          h('style', [
            text(
              'body{font:16px/1.6 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1c2024;background:#fff}main{text-align:center;padding:2rem}@media (prefers-color-scheme:dark){body{color:#e6e8eb;background:#111318}}',
            ),
          ]),
        ]),
        h('body', [h('main', [h('h1', [text(heading)]), h('p', [text(message)])])]),
      ]),
    ],
  });
}
