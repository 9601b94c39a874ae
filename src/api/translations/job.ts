/**
 * The `translation.run` job: translates the source space's live content into each target language
 * through the configured model, one call per page and reusable content (its title as a leading
 * heading, its body as Markdown), and writes it to the language's space as a change request merged
 * by the member who ran it. The translated content keeps the source's page ids, slugs and files, so
 * links between pages and to files hold in every language.
 *
 * Safe to run again from the start: nothing is written before a language is translated whole, an
 * open change request of an interrupted attempt is reused, and merging the same translation again
 * changes nothing a reader sees. A domain failure (the model fails, the merge conflicts, the member
 * lost a right) ends the run `completed` with its `error`; an abort (shutdown, lost lease) gives the
 * job back to run again.
 */
import { countWords, translateMarkdown } from '../../ai/translate.js';
import type { JsonDocument } from '../../content/document.js';
import { documentToMarkdown, markdownToDocument, takeLeadingTitle } from '../../content/markdown.js';
import { getDocuments, loadRevision, type PageNode, putDocument, type ReusableEntry } from '../../content/store.js';
import { type ServiceContext, SYSTEM_ACTOR } from '../../core/service.js';
import type { App } from '../../http/app.js';
import type { JobHandler } from '../../jobs/index.js';
import { ApiError } from '../../lib/errors.js';
import { findSpaceRow } from '../../services/live.js';
import { mergeChangeRequest } from '../change-requests/service.js';
import { replaceChangeRequestContent } from '../content/service.js';
import { listResults } from './repo.js';
import { finishTranslationRun, openRunChangeRequest, type RunPayload, runActor, startTranslationRun } from './run.js';

/** Why a run stopped, recorded as its `error`. */
class RunFailed extends Error {}

interface Translator {
  (markdown: string): Promise<string>;
  words: number;
}

/** A title and body translated in one call: `# title` then the body's Markdown. */
async function translateEntry(
  db: App['db'],
  translate: Translator,
  title: string,
  document: JsonDocument | undefined,
): Promise<{ title: string; document?: string }> {
  const body = document ? documentToMarkdown(document) : '';
  const answer = await translate(`# ${title.replace(/\n/g, ' ')}\n\n${body}`);
  const parsed = markdownToDocument(answer);
  const lead = takeLeadingTitle(parsed);
  const translated = lead?.document ?? parsed;
  const hash = document && translated.nodes.length > 0 ? await putDocument(db, translated) : undefined;
  return { title: lead?.title ?? title, ...(hash ? { document: hash } : {}) };
}

async function translateContent(
  db: App['db'],
  translate: Translator,
  source: { pages: PageNode[]; reusableContents: ReusableEntry[] },
) {
  const hashes = new Set<string>();
  const collect = (pages: PageNode[]) =>
    pages.forEach((p) => {
      if (p.document) hashes.add(p.document);
      collect(p.children);
    });
  collect(source.pages);
  for (const r of source.reusableContents) if (r.document) hashes.add(r.document);
  const documents = await getDocuments(db, [...hashes]);
  let count = 0;
  const page = async (node: PageNode): Promise<PageNode> => {
    count++;
    const { document: _, ...own } = node;
    const done = await translateEntry(
      db,
      translate,
      node.title,
      node.document ? documents.get(node.document) : undefined,
    );
    const children: PageNode[] = [];
    for (const child of node.children) children.push(await page(child));
    return { ...own, ...done, children };
  };
  const pages: PageNode[] = [];
  for (const node of source.pages) pages.push(await page(node));
  const reusableContents: ReusableEntry[] = [];
  for (const entry of source.reusableContents) {
    const done = await translateEntry(
      db,
      translate,
      entry.title,
      entry.document ? documents.get(entry.document) : undefined,
    );
    reusableContents.push({ id: entry.id, ...done });
  }
  return { pages, reusableContents, count };
}

export function translationRunJob(app: App): JobHandler<RunPayload> {
  const system: ServiceContext = { db: app.db, urls: app.urls, actor: SYSTEM_ACTOR };
  return async (payload, { jobId, signal, log }) => {
    const translation = await startTranslationRun(system, payload.translationId, jobId);
    if (!translation) {
      log.info({ translationId: payload.translationId }, 'translation deleted or run again since; nothing to do');
      return;
    }
    const started = Date.now();
    const merged = new Map<string, string>();
    let pages = 0;
    /** The language being written, for the translator and the error. */
    let language = '';
    const translate = (async (markdown: string) => {
      const ai = app.config.ai;
      if (!ai) throw new RunFailed('no AI model is configured on this server any more');
      translate.words += countWords(markdown);
      return translateMarkdown(ai, markdown, { from: translation.source_language ?? '', to: language }, { signal });
    }) as Translator;
    translate.words = 0;
    const finish = (error?: string) =>
      finishTranslationRun(system, translation, jobId, {
        merged,
        pages,
        words: translate.words,
        seconds: Math.round((Date.now() - started) / 1000),
        ...(error ? { error } : {}),
      });
    try {
      const user = await app.db.selectFrom('users').selectAll().where('id', '=', payload.userId).executeTakeFirst();
      if (!user) throw new RunFailed('the member who ran the translation is gone');
      const ctx: ServiceContext = { db: app.db, urls: app.urls, actor: runActor(user) };
      const space = translation.source_space_id ? await findSpaceRow(app.db, translation.source_space_id) : undefined;
      if (!space || space.deleted_at) throw new RunFailed('the source space is gone');
      const source = await loadRevision(app.db, space, space.revision_id);
      if (!source) throw new Error(`the live revision of space ${space.id} is missing`);
      const languages = JSON.parse(translation.languages) as string[];
      const results = ((await listResults(app.db, [translation.id])).get(translation.id) ?? []).filter((r) =>
        languages.includes(r.language),
      );
      for (const result of results) {
        language = result.language;
        const content = await translateContent(app.db, translate, source);
        pages = content.count;
        const changeRequest = await openRunChangeRequest(ctx, translation, result);
        await replaceChangeRequestContent(ctx, result.space_id, changeRequest, {
          pages: content.pages,
          files: source.files,
          reusableContents: content.reusableContents,
        });
        merged.set(language, (await mergeChangeRequest(ctx, result.space_id, changeRequest)).revision);
      }
      await finish();
      log.info({ translationId: translation.id, languages: [...merged.keys()] }, 'translation run completed');
    } catch (error) {
      if (signal.aborted) throw error;
      const domain = error instanceof RunFailed || error instanceof ApiError || (error as Error)?.name === 'LlmError';
      if (!domain) throw error;
      const message = language ? `${language}: ${(error as Error).message}` : (error as Error).message;
      log.info({ translationId: translation.id, error: message }, 'translation run failed');
      await finish(message);
    }
  };
}
