/**
 * Answers a question from the live content of the spaces a caller may read.
 *
 * 1. Retrieval: the question's terms (and, for context, those of the previous questions) are
 *    searched in the spaces' passages (src/search); the database's candidates are re-ranked by how
 *    many of the question's terms each contains, and a passage that holds fewer than half of them is
 *    dropped, so an unrelated question finds nothing rather than a weak match.
 * 2. The answer: with a model configured, the best passages are its only context and its answer is
 *    streamed; without one (or when the model fails or passes its deadline: a warning is logged),
 *    an extractive answer quotes the passages. Nothing relevant: "No answer found", no sources.
 *
 * {@link answerQuestion} yields the answer as it grows, each state complete (Markdown so far, sources,
 * follow-up questions, details); the last state is the answer. The streamed and the plain operations
 * read the same generator, so the stream ends on exactly the plain answer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AiConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { SpaceRow } from '../db/schema.js';
import { ensureIndexed, type Passage, search } from '../search/index.js';
import { MAX_TERMS, normalize, queryTerms, termMatcher } from '../search/terms.js';
import { extractiveBlocks, NO_ANSWER, passageLabel, questionFor, questionForPage } from './extractive.js';
import { type ChatMessage, LlmError, streamChat } from './llm.js';

/** Candidates asked of the database. */
const CANDIDATES = 40;
/** Passages quoted by an extractive answer / given to a model. */
const EXTRACTIVE_PASSAGES = 3;
const MODEL_PASSAGES = 5;
const MAX_PER_PAGE = 2;
/** Characters of one passage given to a model. */
const MODEL_PASSAGE_CHARS = 2_000;
const FOLLOWUPS = 3;

export interface AnswerSource {
  type: 'page';
  reason: string;
  page: string;
  revision: string;
  space: string;
  /** Anchors of the sections used (the opening text of a page, before any heading, has none). */
  sections: string[];
}

export interface ConsideredPassage {
  space: string;
  page: string;
  section: string | null;
  label: string;
  score: number;
  matched: string[];
  used: boolean;
}

/** How the question was interpreted (`details=true`). */
export interface AnswerDetails {
  query: string;
  terms: string[];
  contextTerms: string[];
  spaces: string[];
  passagesConsidered: number;
  passages: ConsideredPassage[];
  answeredBy: 'extractive' | 'model' | 'none';
  model?: string;
  fallback?: string;
}

export interface AnswerState {
  markdown: string;
  sources: AnswerSource[];
  followupQuestions: string[];
  details: AnswerDetails;
}

export interface AnswerInput {
  query: string;
  previousQueries: string[];
  /** The spaces the caller may read (decided by the permission resolver). */
  spaces: SpaceRow[];
  /** When given, only passages of the pages it accepts are used (a published site's visitor view). */
  readable?: (spaceId: string, pageId: string) => boolean;
}

export interface AnswerDeps {
  db: Db;
  ai: AiConfig | null;
  log: FastifyBaseLogger;
  /** Aborted when the client goes away: the model call stops. */
  signal?: AbortSignal;
}

interface Scored extends Passage {
  score: number;
  matched: string[];
}

/** Candidates re-ranked by coverage of the question's terms; those covering too few are dropped. */
function rank(candidates: Passage[], primary: string[], secondary: string[]): Scored[] {
  const needed = Math.max(1, Math.ceil(primary.length / 2));
  const best = Math.max(...candidates.map((c) => c.rank), Number.MIN_VALUE);
  const scored: Scored[] = [];
  for (const c of candidates) {
    const has = termMatcher(`${c.pageTitle}\n${c.heading ?? ''}\n${c.body}`);
    const matched = primary.filter(has);
    if (matched.length < needed) continue;
    const context = secondary.length > 0 ? secondary.filter(has).length / secondary.length : 0;
    const score = (2 * matched.length) / primary.length + 0.5 * context + (0.5 * Math.max(c.rank, 0)) / best;
    scored.push({ ...c, score: Math.round(score * 1000) / 1000, matched });
  }
  return scored.sort((a, b) => b.score - a.score || b.rank - a.rank || a.id - b.id);
}

/** The best passages, at most `count`, at most {@link MAX_PER_PAGE} per page, close to the best. */
function select(ranked: Scored[], count: number): Scored[] {
  const top = ranked[0]?.score ?? 0;
  const perPage = new Map<string, number>();
  const chosen: Scored[] = [];
  for (const p of ranked) {
    if (chosen.length === count || p.score < top * 0.6) break;
    const n = perPage.get(p.pageId) ?? 0;
    if (n >= MAX_PER_PAGE) continue;
    perPage.set(p.pageId, n + 1);
    chosen.push(p);
  }
  return chosen;
}

function sourcesOf(passages: Scored[], reason: (p: Scored[]) => string): AnswerSource[] {
  const byPage = new Map<string, Scored[]>();
  for (const p of passages)
    byPage.set(`${p.spaceId}/${p.pageId}`, [...(byPage.get(`${p.spaceId}/${p.pageId}`) ?? []), p]);
  return [...byPage.values()].map((group) => {
    const first = group[0] as Scored;
    return {
      type: 'page' as const,
      reason: reason(group),
      page: first.pageId,
      revision: first.revisionId,
      space: first.spaceId,
      sections: [...new Set(group.flatMap((p) => (p.anchor ? [p.anchor] : [])))],
    };
  });
}

function followups(ranked: Scored[], used: Scored[], query: string): string[] {
  const usedIds = new Set(used.map((p) => p.id));
  const asked = normalize(query)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  const out: string[] = [];
  for (const p of ranked) {
    if (out.length === FOLLOWUPS) break;
    if (usedIds.has(p.id)) continue;
    const question = p.heading ? questionFor(p.heading, p.pageTitle) : questionForPage(p.pageTitle);
    const key = normalize(question)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
    if (
      key === asked ||
      out.some(
        (q) =>
          normalize(q)
            .replace(/[^\p{L}\p{N}]+/gu, ' ')
            .trim() === key,
      )
    )
      continue;
    out.push(question);
  }
  return out;
}

function modelMessages(query: string, previousQueries: string[], passages: Scored[]): ChatMessage[] {
  const context = passages
    .map((p, i) => {
      const body = p.body.length > MODEL_PASSAGE_CHARS ? `${p.body.slice(0, MODEL_PASSAGE_CHARS)}…` : p.body;
      return `[${i + 1}] ${passageLabel(p)}\n${body}`;
    })
    .join('\n\n');
  const earlier =
    previousQueries.length > 0
      ? `Earlier questions in this conversation, oldest first:\n${previousQueries.map((q) => `- ${q}`).join('\n')}\n\n`
      : '';
  return [
    {
      role: 'system',
      content:
        "You answer questions about an organization's documentation. Use only the documentation excerpts " +
        'given by the user; if they do not contain the answer, say that the documentation does not answer it. ' +
        'Answer in Markdown, concisely, in the language of the question.',
    },
    { role: 'user', content: `Documentation excerpts:\n\n${context}\n\n${earlier}Question: ${query}` },
  ];
}

/** Yields the answer as it grows; the last state yielded is the answer. */
export async function* answerQuestion(deps: AnswerDeps, input: AnswerInput): AsyncGenerator<AnswerState, void> {
  const { db, log } = deps;
  const spaceIds = input.spaces.map((s) => s.id);
  await ensureIndexed(db, input.spaces);
  const terms = queryTerms(input.query);
  const contextTerms = queryTerms(input.previousQueries.join(' '))
    .filter((t) => !terms.includes(t))
    .slice(0, MAX_TERMS);
  // A follow-up made only of stop words ("and then?") is searched with the earlier questions' terms.
  const [primary, secondary] = terms.length > 0 ? [terms, contextTerms] : [contextTerms, []];
  const found = await search(db, { spaceIds, terms: [...primary, ...secondary], limit: CANDIDATES });
  const { readable } = input;
  const candidates = readable ? found.filter((p) => readable(p.spaceId, p.pageId)) : found;
  const ranked = rank(candidates, primary, secondary);

  const details: AnswerDetails = {
    query: input.query,
    terms,
    contextTerms,
    spaces: spaceIds,
    passagesConsidered: candidates.length,
    passages: [],
    answeredBy: 'none',
  };
  const describe = (used: Scored[]) =>
    ranked.slice(0, 10).map((p) => ({
      space: p.spaceId,
      page: p.pageId,
      section: p.anchor,
      label: passageLabel(p),
      score: p.score,
      matched: p.matched,
      used: used.some((u) => u.id === p.id),
    }));

  if (ranked.length === 0) {
    yield { markdown: NO_ANSWER, sources: [], followupQuestions: [], details };
    return;
  }

  const extractive = function* (fallback?: string): Generator<AnswerState> {
    const used = select(ranked, EXTRACTIVE_PASSAGES);
    const state = {
      sources: sourcesOf(used, (group) => `Quoted from ${group.map(passageLabel).join('; ')}`),
      followupQuestions: followups(ranked, used, input.query),
      details: {
        ...details,
        passages: describe(used),
        answeredBy: 'extractive' as const,
        ...(fallback ? { fallback } : {}),
      },
    };
    const blocks = extractiveBlocks(used, primary);
    for (let i = 1; i <= blocks.length; i++) yield { ...state, markdown: blocks.slice(0, i).join('\n\n') };
  };

  if (!deps.ai) {
    yield* extractive();
    return;
  }

  const used = select(ranked, MODEL_PASSAGES);
  const base = {
    sources: sourcesOf(used, (group) => `Given to the model as context: ${group.map(passageLabel).join('; ')}`),
    followupQuestions: followups(ranked, used, input.query),
    details: { ...details, passages: describe(used), answeredBy: 'model' as const, model: deps.ai.model },
  };
  let markdown = '';
  try {
    for await (const piece of streamChat(
      deps.ai,
      modelMessages(input.query, input.previousQueries, used),
      deps.signal,
    )) {
      markdown += piece;
      yield { ...base, markdown };
    }
    if (markdown.trim() !== '') return;
    log.warn({ model: deps.ai.model }, 'the model answered nothing; answering extractively');
    yield* extractive('the model answered nothing');
  } catch (error) {
    if (error instanceof LlmError && error.reason === 'aborted') throw error;
    log.warn({ err: error, model: deps.ai.model }, 'model call failed; answering extractively');
    yield* extractive(error instanceof Error ? error.message : String(error));
  }
}
