/**
 * Signing in with a browser: sessions (only a hash of the cookie's secret is stored), passwords
 * (Argon2id; a row per user who has one, so a user signing in only through SSO has none), password
 * reset tokens (hashed, single use) and failed sign-in attempts (counted per email and per client
 * address, in the database so every process sees the same counts). Access tokens get a label, so
 * that a user listing their tokens can tell them apart.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('client_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** `email:<address>` or `client:<address>` */
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_key').on('sign_in_failures').columns(['key', 'failed_at']).execute();
  await db.schema.createIndex('sign_in_failures_at').on('sign_in_failures').column('failed_at').execute();

  await db.schema.alterTable('api_tokens').addColumn('label', 'text').execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_tokens_user').execute();
  await db.schema.alterTable('api_tokens').dropColumn('label').execute();
  await db.schema.dropTable('sign_in_failures').execute();
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('user_passwords').execute();
  await db.schema.dropTable('sessions').execute();
}
