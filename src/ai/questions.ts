/**
 * Recommended questions: drawn from the headings (or, for pages without any, the titles) of the
 * live content of the spaces a caller may read, one per page, taking the spaces in turn so that
 * every space gets a say.
 */
import type { Db } from '../db/database.js';
import type { SpaceRow } from '../db/schema.js';
import { ensureIndexed, outline } from '../search/index.js';
import { normalize } from '../search/terms.js';
import { questionFor, questionForPage } from './extractive.js';

export const MAX_RECOMMENDED = 5;
/** Outline entries read to pick from. */
const OUTLINE = 500;

export async function* recommendedQuestions(db: Db, spaces: SpaceRow[]): AsyncGenerator<string, void> {
  await ensureIndexed(db, spaces);
  const entries = await outline(
    db,
    spaces.map((s) => s.id),
    OUTLINE,
  );
  // Per space, per page: the first heading of the page, else its title.
  const perSpace = new Map<string, Map<string, { question: string; fromHeading: boolean }>>();
  for (const e of entries) {
    const pages = perSpace.get(e.spaceId) ?? new Map<string, { question: string; fromHeading: boolean }>();
    perSpace.set(e.spaceId, pages);
    const current = pages.get(e.pageId);
    if (current?.fromHeading) continue;
    if (e.heading) pages.set(e.pageId, { question: questionFor(e.heading, e.pageTitle), fromHeading: true });
    else if (!current) pages.set(e.pageId, { question: questionForPage(e.pageTitle), fromHeading: false });
  }
  const queues = [...perSpace.values()].map((pages) => [...pages.values()].map((p) => p.question));
  const seen = new Set<string>();
  let yielded = 0;
  for (let round = 0; yielded < MAX_RECOMMENDED && queues.some((q) => q.length > round); round++) {
    for (const queue of queues) {
      const question = queue[round];
      if (question === undefined) continue;
      const key = normalize(question);
      if (seen.has(key)) continue;
      seen.add(key);
      yield question;
      if (++yielded === MAX_RECOMMENDED) return;
    }
  }
}
