/** Shapes an answer state (src/ai/answer.ts) as the official `SearchAIAnswer`. */
import type { Static } from 'typebox';
import type { AnswerState } from '../../ai/answer.js';
import { markdownToDocument } from '../../content/markdown.js';
import type { SearchAIAnswer } from './schemas.js';

export interface PresentOptions {
  format?: 'document' | 'markdown';
  details?: boolean;
}

export function presentAnswer(state: AnswerState, options: PresentOptions): Static<typeof SearchAIAnswer> {
  return {
    answer:
      options.format === 'document' ? { document: markdownToDocument(state.markdown) } : { markdown: state.markdown },
    followupQuestions: state.followupQuestions,
    sources: state.sources,
    ...(options.details ? { details: state.details } : {}),
  };
}
