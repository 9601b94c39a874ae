import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, questionFor, questionForPage, quote } from '../../src/ai/extractive.js';
import { LlmError, streamChat } from '../../src/ai/llm.js';
import { markdownToDocument } from '../../src/content/markdown.js';
import { splitSections } from '../../src/search/passages.js';
import { queryTerms, termMatcher } from '../../src/search/terms.js';

describe('passages', () => {
  it('splits a page at headings, keeps the opening text with the description, flattens blocks', () => {
    const document = markdownToDocument(
      [
        'Intro with **bold** and a [link](https://x.test).',
        '',
        '## First step',
        '',
        '- one',
        '- two',
        '',
        '```sh',
        'npm install',
        '```',
        '',
        '### Déjà vu',
        '',
        '| A | B |',
        '| - | - |',
        '| 1 | 2 |',
        '',
        '## Empty',
      ].join('\n'),
    );
    const sections = splitSections(document, 'The description.');
    expect(sections).toEqual([
      { index: 0, anchor: null, heading: null, text: 'The description.\nIntro with bold and a link.' },
      { index: 1, anchor: 'first-step', heading: 'First step', text: 'one\ntwo\nnpm install' },
      { index: 2, anchor: 'déjà-vu', heading: 'Déjà vu', text: 'A | B\n1 | 2' },
      { index: 3, anchor: 'empty', heading: 'Empty', text: '' },
    ]);
    expect(splitSections(undefined)).toEqual([]);
    expect(splitSections(undefined, 'Only a description')).toHaveLength(1);
  });
});

describe('terms', () => {
  it('drops stop words and question words, normalizes, matches inflections', () => {
    expect(queryTerms('How do I install the CLI on Café servers? How?')).toEqual(['install', 'cli', 'cafe', 'servers']);
    expect(queryTerms('and what about that?')).toEqual([]);
    const has = termMatcher('Installing the command-line tool on every server.');
    expect(['install', 'servers', 'command', 'database'].map(has)).toEqual([true, true, true, false]);
  });

  it('quotes the sentences with the most terms, escapes Markdown, phrases questions', () => {
    const body = 'Bindery is a server. Run npm install to install it. Ports are set with PORT. Nothing else.';
    expect(quote(body, ['install', 'npm'])).toBe('Run npm install to install it.');
    expect(quote(body, ['zzz'])).toBe('Bindery is a server. Run npm install to install it.');
    expect(escapeMarkdown('# a *b* [c] <d>')).toBe('\\# a \\*b\\* \\[c\\] \\<d\\>');
    expect(questionFor('Install the CLI', 'Setup')).toBe('How do I install the CLI?');
    expect(questionFor('Installing plugins', 'Setup')).toBe('How do I install plugins?');
    expect(questionFor('What is a space?', 'Spaces')).toBe('What is a space?');
    expect(questionFor('Requirements', 'Deploying')).toBe('What does "Deploying" say about requirements?');
    expect(questionFor('Rate limits', 'API')).toBe('What is Rate limits?');
    expect(questionForPage('Installation')).toBe('What does "Installation" cover?');
    expect(questionForPage('Deploy to production')).toBe('How do I deploy to production?');
  });
});

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { baseUrl, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function collect(generator: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of generator) out.push(piece);
  return out;
}

describe('OpenAI-compatible client', () => {
  it('reads a non-streamed completion, reports errors in the stream and bad statuses', async () => {
    let mode = 'json';
    const server = await serve((_req, res) => {
      if (mode === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { content: 'whole answer' } }] }));
      } else if (mode === 'sse-error') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'par' } }] })}\n\n`);
        res.end(`data: ${JSON.stringify({ error: { message: 'context too long' } })}\n\n`);
      } else {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{"error":"bad key"}');
      }
    });
    const config = { baseUrl: server.baseUrl, model: 'm', apiKey: null, timeoutMs: 2_000 };
    const messages = [{ role: 'user' as const, content: 'hi' }];
    try {
      expect(await collect(streamChat(config, messages))).toEqual(['whole answer']);
      mode = 'sse-error';
      await expect(collect(streamChat(config, messages))).rejects.toThrow(/context too long/);
      mode = 'status';
      const error = await collect(streamChat(config, messages)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).message).toMatch(/401/);
      const aborted = new AbortController();
      aborted.abort();
      const stopped = await collect(streamChat(config, messages, aborted.signal)).catch((e: unknown) => e);
      expect((stopped as LlmError).reason).toBe('aborted');
    } finally {
      await server.close();
    }
  });
});
