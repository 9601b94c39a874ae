/**
 * A client for an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp
 * server, …): `POST {AI_BASE_URL}/chat/completions` with `stream: true`, the answer read token by
 * token from the server-sent events (`data: {choices: [{delta: {content}}]}` … `data: [DONE]`),
 * parsed with `eventsource-parser`. A server that ignores `stream` and answers one JSON completion
 * is read too.
 *
 * The endpoint is configured by the operator, not given by users, so it is fetched directly (not
 * through the private-address guard of lib/fetch.ts): a model on loopback or the local network is
 * the usual case. Every call has a deadline (`timeoutMs`, the whole completion) and stops when the
 * caller's signal aborts (the client of the answer went away).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { AiConfig } from '../config.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Why a model call failed: `timeout` (the deadline passed), `aborted` (the caller's signal), `failed`. */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'aborted' | 'failed',
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

const MAX_ERROR_BODY = 500;

/**
 * Streams the model's answer to `messages`: yields each piece of content as it arrives. Throws
 * {@link LlmError} on failure, timeout or abort (the request to the model is aborted in every case).
 */
export async function* streamChat(
  config: AiConfig,
  messages: ChatMessage[],
  signal?: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  const deadline = AbortSignal.timeout(config.timeoutMs);
  // Ours: aborts the request when the consumer stops reading early.
  const local = new AbortController();
  const combined = AbortSignal.any([local.signal, deadline, ...(signal ? [signal] : [])]);
  const failure = (error: unknown): LlmError => {
    if (error instanceof LlmError) return error;
    if (signal?.aborted) return new LlmError('the answer was abandoned by its client', 'aborted');
    if (deadline.aborted) return new LlmError(`the model did not answer within ${config.timeoutMs} ms`, 'timeout');
    return new LlmError(`the model call failed: ${(error as Error)?.message ?? String(error)}`, 'failed');
  };

  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream, application/json',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: config.model, messages, stream: true, temperature: 0.2 }),
      signal: combined,
    });
  } catch (error) {
    throw failure(error);
  }

  try {
    if (!response.ok) {
      const text = (await response.text()).slice(0, MAX_ERROR_BODY);
      throw new LlmError(`the model endpoint answered ${response.status}: ${text}`, 'failed');
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      // A server that does not stream: one chat completion.
      const body = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new LlmError('the model answered without content', 'failed');
      if (content) yield content;
      return;
    }
    if (!response.body) throw new LlmError('the model answered without a body', 'failed');

    const pending: string[] = [];
    let done = false;
    let error: LlmError | null = null;
    const parser = createParser({
      onEvent: (event: EventSourceMessage) => {
        if (done || error) return;
        if (event.data.trim() === '[DONE]') {
          done = true;
          return;
        }
        let chunk: {
          error?: { message?: string } | string;
          choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
        };
        try {
          chunk = JSON.parse(event.data);
        } catch {
          error = new LlmError('the model sent an event that is not JSON', 'failed');
          return;
        }
        if (chunk.error) {
          const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
          error = new LlmError(`the model reported an error: ${message}`, 'failed');
          return;
        }
        const content = chunk.choices?.[0]?.delta?.content;
        if (typeof content === 'string' && content !== '') pending.push(content);
      },
    });
    const decoder = new TextDecoder();
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(bytes, { stream: true }));
      while (pending.length > 0) yield pending.shift() as string;
      if (error) throw error;
      if (done) return;
    }
    parser.feed(decoder.decode());
    while (pending.length > 0) yield pending.shift() as string;
    if (error) throw error;
  } catch (error) {
    throw failure(error);
  } finally {
    // Stops the request when the consumer leaves early (return/throw) or anything failed; after a
    // complete answer this does nothing.
    local.abort();
  }
}
