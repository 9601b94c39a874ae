/**
 * The Fastify instance type every area plugin receives, and what the app decorates it with. It lives
 * in core so that no area imports `app.ts` (which imports every area).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Urls } from './urls.js';

/** The Fastify instance type every route module receives. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    urls: Urls;
  }
}
