/** AI answers: request and response schemas (official names: SearchAIQuery, SearchAIAnswer, …). */
import { Type } from 'typebox';
import { Nullable, Params, StringEnum } from '../../lib/schemas.js';

/** Longest question accepted (characters). */
export const MAX_QUERY = 2_000;
/** The official limit of `previousQueries`. */
export const MAX_PREVIOUS_QUERIES = 10;

const Query = Type.String({ minLength: 1, maxLength: MAX_QUERY, description: 'The question' });
const Format = StringEnum(['document', 'markdown'] as const, {
  description: 'Form of `answer.answer`: `markdown` (default) or the structured `document`',
});
const Details = Type.Boolean({ description: 'Include how the question was interpreted (`answer.details`)' });

export const AskParams = Type.Object({ organizationId: Params.organizationId });

export const AskQuery = Type.Object({ format: Type.Optional(Format), details: Type.Optional(Details) });

export const StreamAskQuery = Type.Object({
  query: Query,
  format: Type.Optional(Format),
  details: Type.Optional(Details),
});

export const AskBody = Type.Object(
  {
    query: Query,
    previousQueries: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_QUERY }), {
        maxItems: MAX_PREVIOUS_QUERIES,
        deprecated: true,
        description: 'Earlier questions of the conversation, oldest first (context for this one)',
      }),
    ),
  },
  { additionalProperties: false, title: 'SearchAIQuery' },
);

export const AnswerSource = Type.Object(
  {
    type: Type.Literal('page'),
    reason: Type.String({ description: 'How the source was used' }),
    page: Type.String(),
    revision: Type.String({ description: 'The live revision the page was read from' }),
    space: Type.String(),
    sections: Type.Array(Type.String(), { description: 'Anchors of the sections of the page used' }),
  },
  { title: 'SearchAIAnswerSourcePage' },
);

const AnswerDetails = Type.Object(
  {
    query: Type.String(),
    terms: Type.Array(Type.String(), { description: 'Terms searched for' }),
    contextTerms: Type.Array(Type.String(), { description: 'Terms taken from previousQueries' }),
    spaces: Type.Array(Type.String(), { description: 'Spaces searched: every space the caller can read' }),
    passagesConsidered: Type.Integer(),
    passages: Type.Array(
      Type.Object({
        space: Type.String(),
        page: Type.String(),
        section: Nullable(Type.String()),
        label: Type.String(),
        score: Type.Number(),
        matched: Type.Array(Type.String()),
        used: Type.Boolean(),
      }),
    ),
    answeredBy: StringEnum(['extractive', 'model', 'none'] as const),
    model: Type.Optional(Type.String()),
    fallback: Type.Optional(Type.String({ description: 'Why the model answer was replaced by an extractive one' })),
  },
  { description: 'How the question was interpreted (details=true)' },
);

export const SearchAIAnswer = Type.Object(
  {
    answer: Type.Union([
      Type.Object({ markdown: Type.String() }),
      Type.Object({ document: Type.Unknown({ description: 'The answer as the official JSONDocument' }) }),
    ]),
    followupQuestions: Type.Array(Type.String()),
    sources: Type.Array(AnswerSource),
    details: Type.Optional(AnswerDetails),
  },
  { title: 'SearchAIAnswer' },
);

export const AskResponse = Type.Object({ answer: SearchAIAnswer });

export const AnswerStreamEvent = Type.Object(
  { type: Type.Literal('answer'), answer: SearchAIAnswer },
  { title: 'SearchAIAnswerStream', description: 'One event per step; each carries the whole answer so far' },
);

export const RecommendedQuestions = Type.Object(
  { questions: Type.Array(Type.String()) },
  { title: 'SearchAIRecommendedQuestions' },
);

export const RecommendedQuestionEvent = Type.Object(
  { question: Type.String() },
  { title: 'SearchAIRecommendedQuestionStream' },
);

/** A 200 answered as server-sent events whose `data` lines are `schema` objects. */
export function eventStream<T extends object>(schema: T, description: string) {
  return { description, content: { 'text/event-stream': { schema } } };
}
