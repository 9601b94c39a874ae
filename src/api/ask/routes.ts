/**
 * AI answers over an organization's content: ask (plain and streamed) and recommended questions
 * (plain and streamed).
 *
 * Who: members of the organization who are not guests (everyone else: 404, as for the organization
 * itself), with the `organization:ask` scope, in an organization whose `ai` setting is on (403
 * otherwise). Answers and questions come only from the live content of the spaces the caller can
 * read, as the permission resolver decides; guests get 404 rather than answers from their granted
 * spaces, as they do not see the organization.
 *
 * Streams (`…/stream`) are server-sent events (see sse.ts); every check above happens before the
 * stream opens, so refusals are ordinary JSON errors.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AnswerState, answerQuestion } from '../../ai/answer.js';
import { LlmError } from '../../ai/llm.js';
import { recommendedQuestions } from '../../ai/questions.js';
import type { SpaceRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { ApiError, forbidden, notFound } from '../../lib/errors.js';
import { requireOrgMember } from '../../permissions/organization.js';
import { loadViewer } from '../../permissions/resolver.js';
import { atLeast } from '../../permissions/roles.js';
import { presentAnswer } from './present.js';
import { findOrganizationAi, listLiveSpaces } from './repo.js';
import {
  AnswerStreamEvent,
  AskBody,
  AskParams,
  AskQuery,
  AskResponse,
  eventStream,
  RecommendedQuestionEvent,
  RecommendedQuestions,
  StreamAskQuery,
} from './schemas.js';
import { EventStream } from './sse.js';

const tags = ['organization-ask'];
/** Least time between two answer events of a stream (tokens arriving faster are sent together). */
const STREAM_INTERVAL_MS = 40;

/** The spaces of the organization the caller may read, after the membership and `ai` checks. */
async function readableSpaces(app: App, request: FastifyRequest, organizationId: string): Promise<SpaceRow[]> {
  const { user } = caller(request);
  await requireOrgMember(app.db, organizationId, user.id);
  const org = await findOrganizationAi(app.db, organizationId);
  if (!org) throw notFound(`organization ${organizationId} not found`);
  if (org.ai !== 1) {
    throw forbidden(`AI answers are turned off in organization ${organizationId} (its "ai" setting is false)`);
  }
  const [viewer, spaces] = await Promise.all([
    loadViewer(app.db, organizationId, user.id),
    listLiveSpaces(app.db, organizationId),
  ]);
  return spaces.filter((space) => atLeast(viewer.roleOn({ type: 'space', ...space }), 'read'));
}

/** Aborted when the client of a plain (not streamed) request goes away before the answer. */
function abandonSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

export default async function askRoutes(app: App) {
  app.post(
    '/orgs/:organizationId/ask',
    {
      config: { scope: 'organization:ask' },
      schema: {
        operationId: 'askInOrganization',
        summary: 'Ask a question across the spaces the caller can read',
        tags,
        params: AskParams,
        querystring: AskQuery,
        body: AskBody,
        response: { 200: AskResponse },
      },
    },
    async (request, reply) => {
      const spaces = await readableSpaces(app, request, request.params.organizationId);
      let last: AnswerState | undefined;
      const states = answerQuestion(
        { db: app.db, ai: app.config.ai, log: request.log, signal: abandonSignal(reply) },
        { query: request.body.query, previousQueries: request.body.previousQueries ?? [], spaces },
      );
      try {
        for await (const state of states) last = state;
      } catch (error) {
        // The client left while the model answered: nobody to answer to.
        if (error instanceof LlmError && error.reason === 'aborted') throw new ApiError(499, error.message);
        throw error;
      }
      if (!last) throw new Error('the answer produced nothing');
      return { answer: presentAnswer(last, request.query) };
    },
  );

  app.get(
    '/orgs/:organizationId/ask/stream',
    {
      config: { scope: 'organization:ask' },
      schema: {
        operationId: 'streamAskInOrganization',
        summary: 'Ask a question across the spaces the caller can read (server-sent events)',
        tags,
        params: AskParams,
        querystring: StreamAskQuery,
        response: {
          200: eventStream(
            AnswerStreamEvent,
            'Server-sent events: `{type: "answer", answer}` with the whole answer so far, then `event: done`',
          ),
        },
      },
    },
    async (request, reply) => {
      const spaces = await readableSpaces(app, request, request.params.organizationId);
      const stream = new EventStream(request, reply, app.config.sseHeartbeatMs);
      stream.open();
      const { query, ...options } = request.query;
      const send = (state: AnswerState) => stream.send({ type: 'answer', answer: presentAnswer(state, options) });
      try {
        let pending: AnswerState | undefined;
        let sentAt = 0;
        const states = answerQuestion(
          { db: app.db, ai: app.config.ai, log: request.log, signal: stream.signal },
          { query, previousQueries: [], spaces },
        );
        for await (const state of states) {
          if (stream.closed) break;
          pending = state;
          if (Date.now() - sentAt >= STREAM_INTERVAL_MS) {
            await send(state);
            pending = undefined;
            sentAt = Date.now();
          }
        }
        if (pending && !stream.closed) await send(pending);
        stream.end();
      } catch (error) {
        if (error instanceof LlmError && error.reason === 'aborted') return;
        request.log.error({ err: error }, 'streamed answer failed');
        stream.fail(500, 'internal server error');
      }
    },
  );

  app.get(
    '/orgs/:organizationId/ask/questions',
    {
      config: { scope: 'organization:ask' },
      schema: {
        operationId: 'getRecommendedQuestionsInOrganization',
        summary: 'Questions to ask, drawn from the content the caller can read',
        tags,
        params: AskParams,
        response: { 200: RecommendedQuestions },
      },
    },
    async (request) => {
      const spaces = await readableSpaces(app, request, request.params.organizationId);
      const questions: string[] = [];
      for await (const question of recommendedQuestions(app.db, spaces)) questions.push(question);
      return { questions };
    },
  );

  app.get(
    '/orgs/:organizationId/ask/questions/stream',
    {
      config: { scope: 'organization:ask' },
      schema: {
        operationId: 'streamRecommendedQuestionsInOrganization',
        summary: 'Questions to ask (server-sent events)',
        tags,
        params: AskParams,
        response: {
          200: eventStream(RecommendedQuestionEvent, 'Server-sent events: one `{question}` each, then `event: done`'),
        },
      },
    },
    async (request, reply) => {
      const spaces = await readableSpaces(app, request, request.params.organizationId);
      const stream = new EventStream(request, reply, app.config.sseHeartbeatMs);
      stream.open();
      try {
        for await (const question of recommendedQuestions(app.db, spaces)) {
          if (stream.closed) break;
          await stream.send({ question });
        }
        stream.end();
      } catch (error) {
        request.log.error({ err: error }, 'streamed questions failed');
        stream.fail(500, 'internal server error');
      }
    },
  );
}
