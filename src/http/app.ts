/**
 * The Fastify instance type every area plugin receives, and the app's context: what every area
 * reads from it (the database, the configuration, the URL builder). It lives in core so that no area
 * imports `app.ts` (which imports every area).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { Urls } from '../lib/urls.js';

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

export interface ContextOptions {
  db: Db;
  config: Config;
  /** Close `db` when the app closes (false when the caller opened it and closes it). */
  closeDb: boolean;
}

/**
 * Decorates the app with its database, configuration and URL builder. Registered first: onClose
 * hooks run in reverse order of registration, so the database is closed after everything else.
 */
export const appContext = fp<ContextOptions>(
  async (app, { db, config, closeDb }) => {
    app.decorate('db', db);
    app.decorate('config', config);
    app.decorate('urls', new Urls(config.publicUrl));
    if (closeDb) app.addHook('onClose', async () => db.destroy());
  },
  { name: 'bindery-context' },
);
