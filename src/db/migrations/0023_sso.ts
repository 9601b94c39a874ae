/**
 * Single sign-on: an organization's SAML identity providers (the official `sso` operations), and
 * the ids of the assertions they sent, kept until each expires so that a captured response cannot
 * sign anyone in a second time. OpenID Connect keeps nothing here: it is configured by the
 * environment and its login state travels in a short-lived signed cookie (src/auth/oidc.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('sso_url', 'text')
    .addColumn('certificate', 'text')
    .addColumn('default_team_id', 'text', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('saml_providers_org')
    .on('saml_providers')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('saml_assertions')
    .addColumn('provider_id', 'text', (c) => c.notNull().references('saml_providers.id').onDelete('cascade'))
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();
  // Expired ids are deleted as new ones arrive.
  await db.schema.createIndex('saml_assertions_expiry').on('saml_assertions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('saml_assertions').execute();
  await db.schema.dropTable('saml_providers').execute();
}
