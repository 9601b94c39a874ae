/**
 * What a starting server makes before it answers anyone: the server-wide keys (the visitor-claims
 * signing key, and the secrets key when SECRETS_KEY is not set) and what older databases lack (the
 * visitor-auth settings of sites made before settings came with the site). Made here so that no
 * request, and no read in particular, ever writes them. Every step writes only what is missing, so
 * processes starting together on one database agree.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { signingKey } from '../core/keys.js';
import { secretsKey } from '../core/secrets.js';
import type { Db } from '../db/database.js';
import { backfillVisitorAuth } from '../sites/visitor-auth.js';

export async function prepareServerData(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  await signingKey(db);
  const key = await secretsKey(db, config.secretsKey, log);
  const made = await backfillVisitorAuth(db, key);
  if (made > 0) log.info({ sites: made }, 'made the visitor-auth settings of sites that had none');
}
