/**
 * Contract test of AI answers: the JSON operations through the official client, validated against
 * the official schemas; the streamed operations through the official client's own stream reader
 * (which stops on `event: done`), each event validated against the `text/event-stream` schema the
 * official document gives the operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../helpers/ask.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  assertRequestConforms,
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  findOperation,
  validateAgainst,
} from './validate.js';

const ASK_OPERATIONS = ['askInOrganization', 'getRecommendedQuestionsInOrganization'] as const;
const STREAM_OPERATIONS = ['streamAskInOrganization', 'streamRecommendedQuestionsInOrganization'] as const;

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

/** Pointer to the schema of the server-sent events of a streamed operation. */
function eventSchema(operationId: string): string {
  const { path, method } = findOperation(operationId);
  const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
  return `#/paths/${segment(path)}/${method}/responses/200/content/${segment('text/event-stream')}/schema`;
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

async function organization() {
  const { id, admin } = await server.harness.org();
  const api = server.client(admin.token);
  const space = await api.orgs.createSpace(id, { title: 'Guide' });
  await publish(admin.client, space.data.id, [
    {
      title: 'Deploying',
      markdown:
        'How deployments work.\n\n## Deploy to production\n\nRun `bindery deploy --prod` after the checks pass. ' +
        'Deployments **roll back** automatically when health checks fail.',
    },
  ]);
  return { id, admin, api };
}

describe('AI answers through the official client', () => {
  it('asks (markdown, document, details) and recommends questions', async () => {
    const { id, api } = await organization();
    const body = { query: 'How do I deploy to production?', previousQueries: ['What are deployments?'] };
    assertRequestConforms('askInOrganization', body);
    const plain = await expectConforms('askInOrganization', api.orgs.askInOrganization(id, body), 200);
    expect(plain.data.answer?.sources.length).toBeGreaterThan(0);
    expect(JSON.stringify(plain.data.answer?.answer)).toContain('bindery deploy');
    await expectConforms(
      'askInOrganization',
      api.orgs.askInOrganization(id, { query: 'deploy' }, { format: 'document', details: true }),
      200,
    );
    const none = await expectConforms(
      'askInOrganization',
      api.orgs.askInOrganization(id, { query: 'quarterly revenue forecast' }),
      200,
    );
    expect(none.data.answer?.sources).toEqual([]);

    const questions = await expectConforms(
      'getRecommendedQuestionsInOrganization',
      api.orgs.getRecommendedQuestionsInOrganization(id),
      200,
    );
    expect(questions.data.questions).toContain('How do I deploy to production?');
  });

  it('streams answers and questions as the official client reads them', async () => {
    const { id, api } = await organization();
    const answers = await collect(
      api.orgs.streamAskInOrganization(id, { query: 'How do I deploy to production?', details: true }),
    );
    expect(answers.length).toBeGreaterThan(0);
    for (const event of answers) expect(validateAgainst(eventSchema('streamAskInOrganization'), event)).toEqual([]);
    const documents = await collect(api.orgs.streamAskInOrganization(id, { query: 'deploy', format: 'document' }));
    for (const event of documents) expect(validateAgainst(eventSchema('streamAskInOrganization'), event)).toEqual([]);

    const questions = await collect(api.orgs.streamRecommendedQuestionsInOrganization(id));
    expect(questions.length).toBeGreaterThan(0);
    for (const event of questions) {
      expect(validateAgainst(eventSchema('streamRecommendedQuestionsInOrganization'), event)).toEqual([]);
    }
    for (const op of STREAM_OPERATIONS) findOperation(op);
  });

  it('errors: outsiders 404, ai turned off 403', async () => {
    const { id, api, admin } = await organization();
    const outsider = await server.harness.user();
    const other = server.client(outsider.token);
    await expectApiError('askInOrganization', other.orgs.askInOrganization(id, { query: 'deploy' }), 404);
    await expectApiError(
      'getRecommendedQuestionsInOrganization',
      other.orgs.getRecommendedQuestionsInOrganization(id),
      404,
    );
    expect((await admin.client.patch(`/v1/orgs/${id}`, { ai: false })).status).toBe(200);
    await expectApiError('askInOrganization', api.orgs.askInOrganization(id, { query: 'deploy' }), 403);
    await expectApiError(
      'getRecommendedQuestionsInOrganization',
      api.orgs.getRecommendedQuestionsInOrganization(id),
      403,
    );
  });

  it('covers every JSON operation of the area', () => {
    expectOperationsCovered(ASK_OPERATIONS);
  });
});
