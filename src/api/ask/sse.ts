/**
 * Server-sent events on a hijacked reply: `Content-Type: text/event-stream`, one JSON object per
 * `data:` line, a comment line as heartbeat while nothing else is sent (so proxies and clients keep
 * the connection), and an explicit end: `event: done` (what the official client stops on), or
 * `event: error` with the usual error envelope when something fails after the stream started.
 * Everything that can be refused (authentication, scope, permissions, validation) is checked before
 * {@link EventStream.open}, so those failures stay ordinary JSON errors.
 *
 * {@link EventStream.signal} aborts when the client goes away before the end; the producer stops
 * (and aborts its model request) on it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { trackStream } from '../../http/metrics.js';
import { errorBody } from '../../lib/errors.js';

export class EventStream {
  private readonly controller = new AbortController();
  private heartbeat: NodeJS.Timeout | undefined;
  private finished = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly heartbeatMs: number,
  ) {}

  /** Aborted when the client disconnects before the stream ended. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get closed(): boolean {
    return this.finished || this.controller.signal.aborted;
  }

  /** Takes the response over from Fastify and sends the headers. */
  open(): void {
    this.reply.hijack();
    const raw = this.reply.raw;
    raw.on('close', () => {
      if (!this.finished) this.controller.abort();
      this.stopHeartbeat();
    });
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Tells nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
      'x-request-id': this.request.id,
    });
    raw.flushHeaders();
    trackStream(this.reply);
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Sends one event: `data` as one JSON line (and an `event:` name when given). */
  async send(data: unknown, event?: string): Promise<void> {
    const ok = this.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    if (!ok && !this.closed) {
      // Back-pressure: wait until the client has read what was sent (or left).
      await new Promise<void>((resolve) => {
        const done = () => {
          this.reply.raw.off('drain', done);
          this.reply.raw.off('close', done);
          resolve();
        };
        this.reply.raw.on('drain', done);
        this.reply.raw.on('close', done);
      });
    }
  }

  /** Ends the stream normally: `event: done`. */
  end(): void {
    if (this.closed) return;
    this.write('event: done\ndata: {}\n\n');
    this.finish();
  }

  /** Ends the stream with `event: error` and the error envelope (the status is already sent). */
  fail(code: number, message: string): void {
    if (this.closed) return;
    this.write(`event: error\ndata: ${JSON.stringify(errorBody(code, message))}\n\n`);
    this.finish();
  }

  private write(text: string): boolean {
    if (this.closed) return true;
    return this.reply.raw.write(text);
  }

  private finish(): void {
    this.finished = true;
    this.stopHeartbeat();
    this.reply.raw.end();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
