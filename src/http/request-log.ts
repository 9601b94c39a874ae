/**
 * The request log line: one entry per request, when its response is sent, with the fields worth
 * having (method, URL, client address, status, time). Fastify's default writes two entries per
 * request ("incoming request", "request completed"), each through the full request serializer.
 * Errors keep Fastify's handling (logged whole, with the request).
 */
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import fp from 'fastify-plugin';
import pino from 'pino';

/**
 * Query parameters that carry a credential, whose values never reach a log: a published site's
 * share-link key, visitor token and preview token (src/published/access.ts), the API's `shareKey`
 * (site lookups), and `access_token` (a bearer token in the query, RFC 6750 §2.3, which a client may
 * send even though Bindery reads tokens only from `Authorization`). Names are compared decoded and
 * lower-cased, so `?jwt%5Ftoken=` or `?Share=` are caught too.
 */
export const SECRET_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'share',
  'sharekey',
  'jwt_token',
  'preview',
  'access_token',
]);
const REDACTED = '[REDACTED]';
/** A query that may name one of them (a cheap test before splitting the query). */
const MAYBE_SECRET = /share|jwt|preview|token|%/i;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * A request URL as it may be logged: the value of every {@link SECRET_QUERY_PARAMETERS} replaced
 * by `[REDACTED]` (the name kept, so a log still shows that one was given). Every URL a log line
 * holds goes through here: the `req` serializer and the direct success line.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url.slice(at + 1);
  if (!MAYBE_SECRET.test(query)) return url;
  let changed = false;
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    if (!SECRET_QUERY_PARAMETERS.has(decodedName(name))) return part;
    changed = true;
    return `${name}=${REDACTED}`;
  });
  return changed ? `${url.slice(0, at)}?${parts.join('&')}` : url;
}

/**
 * How a request appears in every log entry (the logger's `req` serializer): never its headers (so
 * neither `Authorization` nor `Cookie`), and its URL without credentials ({@link loggableUrl}).
 */
export function serializeRequest(request: FastifyRequest): { method: string; url: string; remoteAddress: string } {
  return { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip };
}

const { chindingsSym, streamSym } = pino.symbols;

const INFO = 30;
/** A batch is written once it holds this much, without waiting for the end of the turn. */
const BATCH_BYTES = 64 * 1024;

interface LineStream {
  write?(text: string): unknown;
}

/**
 * Success lines written in batches: a line is queued and the queue written, in one call of its
 * stream, when the event loop has run the I/O of this turn (or at {@link BATCH_BYTES}). Under load
 * one write then carries the lines of many requests instead of one write system call each (pino's
 * default stream writes synchronously). The queue is written before a request's error line (so a
 * failure follows the requests answered before it), when another stream is given, on close and at
 * exit; other entries logged in the same turn (warnings of background work) may precede it. A line
 * can only be lost if the process is killed within the turn that queued it.
 */
const batch = {
  text: '',
  stream: null as LineStream | null,
  scheduled: false,
  add(stream: LineStream, line: string): void {
    if (this.stream !== stream) this.flush();
    this.stream = stream;
    this.text += line;
    if (this.text.length >= BATCH_BYTES) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(flushRequestLog);
    }
  },
  flush(): void {
    this.scheduled = false;
    if (this.text === '') return;
    const text = this.text;
    this.text = '';
    this.stream?.write?.(text);
  },
};

/** Writes the queued request lines now (before anything that must follow them in the log). */
export function flushRequestLog(): void {
  batch.flush();
}
process.on('exit', flushRequestLog);

/**
 * A request's id (the `reqId` of its log line: the caller's `x-request-id`, or a new one) is sent
 * back in every response's `x-request-id`, so a caller can quote it; the lines still queued are
 * written when the app closes, before the process may exit.
 */
export const requestLogging = fp(
  async (app: FastifyInstance) => {
    app.addHook('onClose', (_instance, done) => {
      flushRequestLog();
      done();
    });
    // Callback hooks here and in core/: an async hook costs a promise and a turn per request.
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header('x-request-id', request.id);
      done(null, payload);
    });
  },
  { name: 'bindery-request-log' },
);

/** `JSON.stringify` of a string, without the key when it is absent (as pino leaves such keys out). */
const field = (key: string, value: string | undefined) =>
  value === undefined ? '' : `,"${key}":${JSON.stringify(value)}`;

/** Writes a successful request's line: what the direct path of {@link RequestLog} writes. */
export type RequestLine = (
  requestId: string,
  method: string,
  url: string,
  remoteAddress: string | undefined,
  statusCode: number,
  responseTimeMs: number,
) => void;

function successLine(
  bindings: string,
  method: string,
  url: string,
  remoteAddress: string | undefined,
  statusCode: number,
  responseTimeMs: number,
): string {
  const req = `{${field('method', method).slice(1)}${field('url', loggableUrl(url))}${field('remoteAddress', remoteAddress)}}`;
  const responseTime = Math.round(responseTimeMs * 100) / 100;
  return `{"level":${INFO},"time":${Date.now()}${bindings},"req":${req},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`;
}

/** What the direct line needs of a pino logger: its stream and its bindings (already JSON). */
function directTarget(log: object): { stream: LineStream; bindings: string } | null {
  const internals = log as Record<symbol, unknown>;
  const stream = internals[streamSym] as LineStream | undefined;
  const bindings = internals[chindingsSym];
  if (typeof stream?.write !== 'function' || typeof bindings !== 'string') return null;
  return { stream, bindings };
}

export class RequestLog extends LogController {
  /**
   * @param direct Write the success line straight to the logger's stream, as the same JSON pino
   * would write (level, time, the logger's bindings, req, res, responseTime, msg), instead of
   * through `log.info`, and in batches (see {@link batch}). Measured alone, building a line costs
   * ~0.3 µs, against 4.3–6.5 µs through pino's generic path (serializers, key iteration, stringify)
   * with one write each; inside a loaded server (interleaved A/B, log on and off) the line and its
   * batched write cost 2–5 µs a request. Only for a logger built from Bindery's own options (no
   * mixin, formatters, redaction or custom levels, which the direct line would skip).
   */
  constructor(private readonly direct = false) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      batch.flush();
      super.requestCompleted(error, request, reply);
      return;
    }
    const log = reply.log as FastifyReply['log'] & { isLevelEnabled?(level: string): boolean };
    if (log.isLevelEnabled && !log.isLevelEnabled('info')) return;
    const target = this.direct ? directTarget(log) : null;
    if (target) {
      batch.add(
        target.stream,
        successLine(target.bindings, request.method, request.url, request.ip, reply.statusCode, reply.elapsedTime),
      );
      return;
    }
    const responseTime = Math.round(reply.elapsedTime * 100) / 100;
    log.info({ req: request, res: { statusCode: reply.statusCode }, responseTime }, 'request completed');
  }

  /**
   * The line writer for requests answered outside Fastify (src/http/cache-front.ts), given the
   * root logger: the same line a request's child logger would write (nothing when logging or info is
   * off). Null when this log does not write its lines directly (such requests are left to Fastify).
   */
  lineWriter(root: FastifyBaseLogger): RequestLine | null {
    if (!this.direct) return null;
    const target = directTarget(root);
    const log = root as FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };
    // Without a pino stream, logging is off (Fastify's `logger: false`): there is no line to write.
    if (!target || !log.isLevelEnabled?.('info')) return () => {};
    const { stream, bindings } = target;
    return (requestId, method, url, remoteAddress, statusCode, responseTimeMs) =>
      batch.add(
        stream,
        successLine(
          `${bindings},"reqId":${JSON.stringify(requestId)}`,
          method,
          url,
          remoteAddress,
          statusCode,
          responseTimeMs,
        ),
      );
  }
}
