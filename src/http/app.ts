/**
 * The Fastify instance type every area plugin receives, and the app's context: what every area
 * reads from it (the database, the configuration, the URL builder). It lives in core so that no area
 * imports `app.ts` (which imports every area).
 */

import { promises as dns } from 'node:dns';
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
import type { ResolveTxt } from '../lib/dns.js';
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
    /** Looks up DNS TXT records (custom hostnames' verification): node:dns unless the app was given one. */
    resolveTxt: ResolveTxt;
  }
}

export interface ContextOptions {
  db: Db;
  config: Config;
  /** Close `db` when the app closes (false when the caller opened it and closes it). */
  closeDb: boolean;
  /** The DNS TXT lookup (tests give a stand-in); node:dns's resolver when absent. */
  resolveTxt?: ResolveTxt;
}

/**
 * Decorates the app with its database, configuration and URL builder. Registered first: onClose
 * hooks run in reverse order of registration, so the database is closed after everything else.
 */
export const appContext = fp<ContextOptions>(
  async (app, { db, config, closeDb, resolveTxt }) => {
    app.decorate('db', db);
    app.decorate('config', config);
    app.decorate('urls', new Urls(config.publicUrl));
    app.decorate('resolveTxt', resolveTxt ?? ((name: string) => dns.resolveTxt(name)));
    if (closeDb) app.addHook('onClose', async () => db.destroy());
  },
  { name: 'bindery-context' },
);
