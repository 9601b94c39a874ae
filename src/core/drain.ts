/**
 * Keeps the database open until every route handler has finished. Fastify's close waits for open
 * connections, but a handler whose client already disconnected keeps running with no connection
 * left to wait for; closing the database under it would fail its queries. So handlers are counted
 * (wrapped at registration) and `close` waits for the count to reach zero, up to a deadline.
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

export function trackHandlers(app: FastifyInstance, options: { timeoutMs: number }): void {
  let running = 0;
  let idle: (() => void) | null = null;

  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function tracked(this: FastifyInstance, request, reply) {
      running++;
      try {
        return await handler.call(this, request, reply);
      } finally {
        running--;
        if (running === 0) idle?.();
      }
    };
  });

  // onClose hooks run in reverse order of registration: added before the database is closed, so it runs after.
  app.addHook('onClose', async () => {
    if (running === 0) return;
    app.log.info({ running }, 'waiting for running handlers before closing');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.timeoutMs);
      idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  });
}
