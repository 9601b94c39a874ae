/**
 * The request log line: one entry per request, when its response is sent, with the fields worth
 * having (method, URL, client address, status, time). Fastify's default writes two entries per
 * request ("incoming request", "request completed"), each through the full request serializer.
 * Errors keep Fastify's handling (logged whole, with the request).
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** How a request appears in every log entry (the logger's `req` serializer): never its headers. */
export function serializeRequest(request: FastifyRequest): { method: string; url: string; remoteAddress: string } {
  return { method: request.method, url: request.url, remoteAddress: request.ip };
}

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const log = reply.log as FastifyReply['log'] & { isLevelEnabled?(level: string): boolean };
    if (log.isLevelEnabled && !log.isLevelEnabled('info')) return;
    log.info(
      {
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  }
}
