/**
 * Builds the Fastify application: logging, validation, errors, authentication, the OpenAPI
 * document and reference page, health checks, then the API areas under `/v1`.
 */
import http from 'node:http';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { registerApi } from './api/index.js';
import { background } from './background.js';
import type { Config } from './config.js';
import type { App } from './core/app.js';
import { registerAuth } from './core/auth.js';
import { type CacheFrontHandler, cacheFront } from './core/cache-front.js';
import { ChangeFeed } from './core/change-feed.js';
import { registerConditionalRequests } from './core/conditional.js';
import { trackHandlers } from './core/drain.js';
import {
  clientErrorHandler,
  ErrorBody,
  formatValidationErrors,
  frameworkErrors,
  MAX_PARAM_LENGTH,
  registerErrorHandling,
} from './core/errors.js';
import { registerIdempotency } from './core/idempotency.js';
import { newId } from './core/ids.js';
import { ResourceLocks } from './core/locks.js';
import { registerMetrics } from './core/metrics.js';
import { trustProxyOption } from './core/proxy.js';
import { registerRateLimit } from './core/rate-limit.js';
import { flushRequestLog, RequestLog, serializeRequest } from './core/request-log.js';
import { registerResponseCache } from './core/response-cache.js';
import { SCOPES } from './core/scopes.js';
import { secretsKey } from './core/secrets.js';
import { Urls } from './core/urls.js';
import { rejectNulCharacters, schemaCompilers } from './core/validation.js';
import { createDb, type Db, driverOf } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { registerPublished } from './published/routes.js';
import { prepareServerData } from './services/startup.js';

export type { App } from './core/app.js';

export interface BuildOptions {
  config: Config;
  /** Use this database instead of opening `config.databaseUrl` (the caller then closes it). */
  db?: Db;
  /** Run migrations before serving (default true). */
  migrate?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** Where the default JSON logger writes (stdout when absent); tests read it. */
  logStream?: { write(line: string): void };
  /** Called as each route is declared (scripts/operations.ts records where). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * When route validators and serializers are compiled: on each one's first use (default, start-up
   * time and idle memory) or at start-up (`app.ready()` then fails on any broken schema).
   */
  compileSchemas?: 'lazy' | 'eager';
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  // Set once the response cache is registered (below); requests it cannot answer go to Fastify.
  let front: CacheFrontHandler | null = null;
  const requestLog = new RequestLog(!options.logger);
  const app = Fastify({
    // Fastify's own HTTP server (lib/server.js), with the cache's front door before its handler.
    serverFactory: (handler, serverOptions) => {
      const server = http.createServer(serverOptions.http ?? {}, (request, response) => {
        if (front === null) handler(request, response);
        else front(request, response, () => handler(request, response));
      });
      server.keepAliveTimeout = serverOptions.keepAliveTimeout as number;
      server.requestTimeout = serverOptions.requestTimeout as number;
      server.setTimeout(serverOptions.connectionTimeout as number);
      return server;
    },
    logger: options.logger ?? {
      level: config.logLevel,
      // A token must never reach a log: a request is logged through this serializer only, which
      // keeps no header. (No `redact` paths: they made pino copy every line's `req` to look for
      // headers that are never there.)
      serializers: { req: serializeRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One cheap line per request instead of Fastify's two (core/request-log.ts).
    logController: requestLog,
    bodyLimit: config.bodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => newId(16),
    schemaErrorFormatter: formatValidationErrors,
    schemaController: { compilersFactory: schemaCompilers(options.compileSchemas ?? 'lazy') },
    // Path parameters are validated by the route schemas (400 naming the field), not cut off at 100 (414).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised outside any route (router, HTTP parser, shutdown) get the envelope too: see core/errors.ts.
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    http: { requireHostHeader: false },
    // The client address (rate limits count by it) is the proxy's unless TRUST_PROXY says to believe it.
    trustProxy: trustProxyOption(config.trustProxy),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const db = options.db ?? createDb(config.databaseUrl);
  if (options.migrate !== false) await migrateToLatest(db);
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('urls', new Urls(config.publicUrl));
  if (!options.db) app.addHook('onClose', async () => db.destroy());
  trackHandlers(app, { timeoutMs: 10_000 });
  // Keys and settings every request may need are made now, before the first request (and before
  // the worker, whose jobs may need them too): no request writes them.
  app.addHook('onReady', async () => prepareServerData(db, config, app.log));
  // The job worker, every job handler and periodic task; early, so that on close they stop before
  // the database does (onClose hooks run in reverse order of registration).
  await app.register(background);
  // The request lines still queued (core/request-log.ts) are written before the process may exit.
  app.addHook('onClose', (_instance, done) => {
    flushRequestLog();
    done();
  });
  // Callback hooks here and in core/: an async hook costs a promise and a turn per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  // An empty body sent as JSON (as the official client does for optional bodies) reads as `{}`.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, done);
  });

  // What this process learns of changes made elsewhere; first, so every request sees them.
  const feed = ChangeFeed.of(db, app.log);
  if (feed) {
    if (driverOf(db)?.kind === 'sqlite') {
      app.addHook('onRequest', (_request, _reply, done) => {
        feed.poll();
        done();
      });
    }
    app.addHook('onReady', async () => feed.start());
    app.addHook('onClose', async () => feed.close());
  }

  registerErrorHandling(app);
  await registerMetrics(app, {
    db,
    jobs: app.jobs,
    token: config.metricsToken,
    responseCache: () => app.responseCache,
  });
  rejectNulCharacters(app);
  registerAuth(app);
  // After authentication: a caller with a valid token is counted by its token, others by address.
  const limiter = await registerRateLimit(app, config);
  // ETags and If-None-Match on reads; If-Match checked with the write under the resource's lock.
  const locks = new ResourceLocks(config.databaseUrl);
  app.addHook('onClose', async () => locks.close());
  registerConditionalRequests(app, locks);
  // GET answers kept until the data changes: after authentication, rate limits and the ETag hook.
  if (feed && config.responseCacheBytes > 0) {
    const cache = registerResponseCache(app, feed, config.responseCacheBytes);
    const logLine = requestLog.lineWriter(app.log);
    if (logLine) {
      let closing = false;
      app.addHook('preClose', async () => {
        closing = true;
      });
      const metrics = app.metrics;
      front = cacheFront({
        cache,
        feed,
        poll: driverOf(db)?.kind === 'sqlite' ? () => feed.poll() : null,
        logLine,
        record: metrics ? (method, route, status, ms) => metrics.recordRoute(method, route, status, ms) : null,
        limiter,
        trustProxy: trustProxyOption(config.trustProxy),
        closing: () => closing,
      });
    }
  } else app.decorate('responseCache', null);
  // Idempotency-Key on POST: a retry replays the first response instead of doing the work again.
  registerIdempotency(app, db, () => secretsKey(db, config.secretsKey, app.log));
  app.addSchema(ErrorBody);
  // Every route documents the error envelope for its failures.
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const response = (route.schema.response ?? {}) as Record<string, unknown>;
    response['4xx'] ??= Type.Ref('Error');
    route.schema.response = response;
    if (route.config?.public) route.schema.security = [];
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bindery API',
        version: '1.0.0',
        description:
          'Documentation-publishing management API, compatible with the GitBook public API. ' +
          'Authenticate with `Authorization: Bearer <token>` (create one with `bindery token create`).',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          user: { type: 'http', scheme: 'bearer' },
          oauth: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                tokenUrl: `${config.publicUrl}/oauth/token`,
                scopes: Object.fromEntries(SCOPES.map((s) => [s, s])),
              },
            },
          },
        },
      },
      security: [{ user: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true },
    theme: { title: 'Bindery API reference' },
  });

  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  // Probes are neither counted nor limited: an orchestrator polling them must never see a 429.
  app.get('/healthz', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { config: { public: true, rateLimit: false }, schema: { hide: true } },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok' };
      } catch (error) {
        app.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ error: { code: 503, message: 'database unreachable' } });
      }
    },
  );

  // Published sites are served outside the API (their hooks see every request: see published/routes.ts).
  await app.register(registerPublished, { ...(feed ? { feed } : {}) });
  await app.register(registerApi, { prefix: '/v1' });
  return app;
}
