/**
 * Builds the Fastify application: logging, validation, errors, authentication, the OpenAPI
 * document and reference page, health checks, then the API areas under `/v1`. Each piece is a
 * plugin that owns its hooks and decorations; `buildApp` says which, and in what order.
 */
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { registerApi } from './api/index.js';
import uploadRoutes from './api/storage/upload-routes.js';
import authRoutes from './auth/routes.js';
import { ssoSignInRoutes } from './auth/sso-routes.js';
import { background } from './background.js';
import type { Config } from './config.js';
import { createDb, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { type App, appContext } from './http/app.js';
import { auth } from './http/auth.js';
import { cacheFrontDoor, FrontDoor } from './http/cache-front.js';
import { changeFeed } from './http/change-feed.js';
import { conditionalRequests } from './http/conditional.js';
import { drain } from './http/drain.js';
import {
  clientErrorHandler,
  errorHandling,
  formatValidationErrors,
  frameworkErrors,
  MAX_PARAM_LENGTH,
} from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { metrics } from './http/metrics.js';
import { trustProxyOption } from './http/proxy.js';
import { rateLimit } from './http/rate-limit.js';
import { RequestLog, requestLogging, serializeRequest } from './http/request-log.js';
import { responseCache } from './http/response-cache.js';
import { requestInput, schemaCompilers } from './http/validation.js';
import type { ResolveTxt } from './lib/dns.js';
import { ErrorBody } from './lib/errors.js';
import { newId } from './lib/ids.js';
import { SCOPES } from './lib/scopes.js';
import { registerInvitePage } from './pages/invite.js';
import { registerReference } from './pages/reference.js';
import { registerPublished } from './published/routes.js';
import { prepareServerData } from './services/startup.js';
import { registerWebApp } from './web/routes.js';

export type { App } from './http/app.js';

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
  /** The DNS TXT lookup custom hostnames are verified with (default: node:dns); tests give their own. */
  resolveTxt?: ResolveTxt;
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  // Opened by the cache-front plugin (below); until then, and if it stays shut, requests go to Fastify.
  const frontDoor = new FrontDoor();
  const requestLog = new RequestLog(!options.logger);
  const app = Fastify({
    // Fastify's own HTTP server, with the response cache's front door before its handler.
    serverFactory: frontDoor.serverFactory,
    logger: options.logger ?? {
      level: config.logLevel,
      // A token must never reach a log: a request is logged through this serializer only, which
      // keeps no header. (No `redact` paths: they made pino copy every line's `req` to look for
      // headers that are never there.)
      serializers: { req: serializeRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One cheap line per request instead of Fastify's two (http/request-log.ts).
    logController: requestLog,
    bodyLimit: config.bodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => newId(16),
    schemaErrorFormatter: formatValidationErrors,
    schemaController: { compilersFactory: schemaCompilers(options.compileSchemas ?? 'lazy') },
    // Path parameters are validated by the route schemas (400 naming the field), not cut off at 100 (414).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised outside any route (router, HTTP parser, shutdown) get the envelope too: see http/errors.ts.
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    http: { requireHostHeader: false },
    // The client address (rate limits count by it) is the proxy's unless TRUST_PROXY says to believe it.
    trustProxy: trustProxyOption(config.trustProxy),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const db = options.db ?? createDb(config.databaseUrl);
  if (options.migrate !== false) await migrateToLatest(db);

  // The database, configuration and URLs: first, so that the database is closed last.
  await app.register(appContext, {
    db,
    config,
    closeDb: !options.db,
    ...(options.resolveTxt ? { resolveTxt: options.resolveTxt } : {}),
  });
  // Before any route, so closing waits for every running handler before the database closes.
  await app.register(drain, { timeoutMs: 10_000 });
  // Keys and settings every request may need are made now, before the first request (and before
  // the worker, whose jobs may need them too): no request writes them.
  app.addHook('onReady', async () => prepareServerData(db, config, app.log));
  // The job worker, every job handler and periodic task; early, so that on close they stop before
  // the database does (onClose hooks run in reverse order of registration).
  await app.register(background);
  // x-request-id on every response; the request log's queued lines written on close.
  await app.register(requestLogging);
  // What this process learns of changes made elsewhere; first onRequest hook, so every request sees them.
  await app.register(changeFeed);
  // The error envelope; refuses requests while closing before any hook does work for them.
  await app.register(errorHandling);
  // Counts every response, whatever answered it (needs the worker, to count its jobs).
  await app.register(metrics, { token: config.metricsToken });
  // JSON bodies, and NUL characters refused before validation.
  await app.register(requestInput);
  await app.register(auth);
  // After authentication: a caller with a valid token is counted by its token, others by address.
  await app.register(rateLimit, { config });
  // ETags and If-None-Match on reads; If-Match checked with the write under the resource's lock.
  await app.register(conditionalRequests);
  // GET answers kept until the data changes: after authentication, rate limits and the ETag hook.
  await app.register(responseCache, {
    maxBytes: config.responseCacheBytes,
    diagnosis: config.responseCacheDiagnosis,
  });
  // Those answers served before Fastify, with the same rate limits, metrics and log line.
  await app.register(cacheFrontDoor, { door: frontDoor, requestLog, trustProxy: trustProxyOption(config.trustProxy) });
  // Idempotency-Key on POST: a retry replays the first response instead of doing the work again.
  await app.register(idempotency);
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
  registerReference(app, () => app.swagger());
  // The web app at `/` and at every `urls.app` address (the landing page when it is not built).
  await app.register(registerWebApp);
  await app.register(registerInvitePage);

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

  // Single sign-on (OpenID Connect, SAML): redirects and small pages outside the API.
  await app.register(ssoSignInRoutes);
  // Published sites are served outside the API (their hooks see every request: see published/routes.ts).
  await app.register(registerPublished);
  // Signing in and out of the browser session (/auth/*), outside the API.
  await app.register(authRoutes);
  // Files sent to a signed upload URL, without a token (outside the API: see the file).
  await app.register(uploadRoutes);
  await app.register(registerApi, { prefix: '/v1' });
  return app;
}
