/** Every query of single sign-on: SAML providers, and the assertion ids kept against replay. */
import type { DbOrTrx } from '../../core/service.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { SamlProviderRow, SamlProvidersTable } from '../../db/schema.js';
import { type Page, paginate } from '../../lib/paging.js';

export async function insertProvider(db: DbOrTrx, row: SamlProvidersTable): Promise<SamlProviderRow> {
  await db.insertInto('saml_providers').values(row).execute();
  return row;
}

export async function findProvider(
  db: DbOrTrx,
  organizationId: string,
  id: string,
): Promise<SamlProviderRow | undefined> {
  return db
    .selectFrom('saml_providers')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** A provider by id alone: the sign-in routes are addressed by the provider's id. */
export async function findProviderById(db: DbOrTrx, id: string): Promise<SamlProviderRow | undefined> {
  return db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listProviders(
  db: DbOrTrx,
  organizationId: string,
  options: { page?: string; limit?: number },
): Promise<Page<SamlProviderRow>> {
  return paginate(
    db.selectFrom('saml_providers').selectAll().where('organization_id', '=', organizationId),
    [
      { column: 'saml_providers.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'saml_providers.id', direction: 'asc', value: (r) => r.id },
    ],
    options,
  );
}

/** The providers people can sign in through (entity id, SSO URL and certificate all set), oldest first. */
export async function listActiveProviders(db: DbOrTrx, organizationId: string): Promise<SamlProviderRow[]> {
  return db
    .selectFrom('saml_providers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('entity_id', 'is not', null)
    .where('sso_url', 'is not', null)
    .where('certificate', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(100)
    .execute();
}

export async function updateProvider(db: DbOrTrx, id: string, changes: Partial<SamlProvidersTable>): Promise<void> {
  await db.updateTable('saml_providers').set(changes).where('id', '=', id).execute();
}

export async function deleteProvider(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('saml_providers').where('id', '=', id).execute();
}

/**
 * Remembers an assertion until `expiresAt`; false when it was already seen (a replay). Expired
 * ids are forgotten here, as new ones arrive.
 */
export async function rememberAssertion(
  db: DbOrTrx,
  providerId: string,
  assertionId: string,
  expiresAt: string,
  now: string,
): Promise<boolean> {
  await db.deleteFrom('saml_assertions').where('expires_at', '<', now).execute();
  const seen = await db
    .selectFrom('saml_assertions')
    .select('assertion_id')
    .where('provider_id', '=', providerId)
    .where('assertion_id', '=', assertionId)
    .executeTakeFirst();
  if (seen) return false;
  try {
    await db
      .insertInto('saml_assertions')
      .values({ provider_id: providerId, assertion_id: assertionId, expires_at: expiresAt })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  return true;
}
