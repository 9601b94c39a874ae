/**
 * Keeps the database open until every route handler has finished. Fastify's close waits for open
 * connections, but a handler whose client already disconnected keeps running with no connection
 * left to wait for; closing the database under it would fail its queries. So handlers are counted
 * (wrapped at registration) and `close` waits for the count to reach zero, up to a deadline.
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Register it before any route (only routes declared after it are counted) and after the database's
 * onClose hook (onClose hooks run in reverse order of registration, so this one runs first).
 */
export const drain = fp<{ timeoutMs: number }>(trackHandlers, {
  name: 'bindery-drain',
  dependencies: ['bindery-context'],
});

async function trackHandlers(app: FastifyInstance, options: { timeoutMs: number }): Promise<void> {
  let running = 0;
  let idle: (() => void) | null = null;

  const done = () => {
    running--;
    if (running === 0) idle?.();
  };
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    // The wrapper must keep the handler's own shape. Fastify sends whatever an async handler's promise
    // resolves to, so wrapping a synchronous handler that replies later (as @fastify/static's
    // `reply.sendFile` does) in an async function would send an empty body first and
    // make the real reply fail with FST_ERR_REP_ALREADY_SENT. A synchronous handler's own work ends when
    // it returns (what it leaves running is Fastify's, and does not use the database).
    route.handler = function tracked(this: FastifyInstance, request, reply) {
      running++;
      let result: unknown;
      try {
        result = handler.call(this, request, reply);
      } catch (error) {
        done();
        throw error;
      }
      if (isThenable(result)) return Promise.resolve(result).finally(done);
      done();
      return result;
    } as RouteHandlerMethod;
  });

  // onClose hooks run in reverse order of registration: added after the database's, so it runs before.
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

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
