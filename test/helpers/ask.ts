/**
 * Helpers for AI answer tests: content published through the API (change request, batch, merge),
 * server-sent events parsed from a body, and an OpenAI-compatible model served on loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Client } from './app.js';

export interface PageInput {
  title: string;
  markdown: string;
}

/** Publishes `pages` into a space: a change request, one batch of inserts, a merge. Returns the page ids by title. */
export async function publish(client: Client, spaceId: string, pages: PageInput[]): Promise<Record<string, string>> {
  const cr = await client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Content' });
  expect(cr.status).toBe(201);
  const batch = await client.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
  });
  expect(batch.status).toBe(200);
  const merged = await client.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
  expect(merged.status).toBe(200);
  const list = await client.get(`/v1/spaces/${spaceId}/content/pages`);
  const ids: Record<string, string> = {};
  const visit = (items: Array<{ id: string; title: string; pages?: unknown[] }>) => {
    for (const item of items) {
      ids[item.title] = item.id;
      visit((item.pages ?? []) as typeof items);
    }
  };
  visit(list.body.pages);
  return ids;
}

export interface SseEvent {
  event: string;
  data: any;
}

/** The events of a server-sent-events body (comments are returned as `event: comment`). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) events.push({ event: 'comment', data: line.slice(1).trim() });
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

export type ModelMode =
  | { kind: 'stream'; chunks: string[]; delayMs?: number; firstDelayMs?: number }
  | { kind: 'hang' }
  | { kind: 'error'; status: number };

export interface ModelServer {
  baseUrl: string;
  mode: ModelMode;
  /** Bodies of the chat-completion requests received. */
  requests: any[];
  /** Resolves when a request is closed by the caller before the completion was fully sent. */
  abandoned: Promise<{ chunksSent: number }>;
  /** Chunks written for the last request. */
  chunksSent: number;
  close(): Promise<void>;
}

/** An OpenAI-compatible chat-completions server on 127.0.0.1 that streams a scripted completion. */
export async function startModelServer(): Promise<ModelServer> {
  let signalAbandoned: (value: { chunksSent: number }) => void = () => {};
  const sockets = new Set<import('node:net').Socket>();
  const model: ModelServer = {
    baseUrl: '',
    mode: { kind: 'stream', chunks: ['ok'] },
    requests: [],
    abandoned: new Promise((resolve) => {
      signalAbandoned = resolve;
    }),
    chunksSent: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      model.requests.push({ ...JSON.parse(raw), authorization: req.headers.authorization });
      const mode = model.mode;
      if (mode.kind === 'hang') return;
      if (mode.kind === 'error') {
        res.writeHead(mode.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model overloaded' } }));
        return;
      }
      let finished = false;
      model.chunksSent = 0;
      res.on('close', () => {
        if (!finished) signalAbandoned({ chunksSent: model.chunksSent });
      });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      if (mode.firstDelayMs) await wait(mode.firstDelayMs);
      for (const [i, content] of mode.chunks.entries()) {
        if (res.destroyed) return;
        if (i > 0 && mode.delayMs) await wait(mode.delayMs);
        if (res.destroyed) return;
        const chunk = { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        model.chunksSent++;
      }
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
      res.write('data: [DONE]\n\n');
      finished = true;
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}
