/** Kysely queries of integrations, their images and installations. */
import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTrx } from '../../core/service.js';
import { containsInsensitive } from '../../db/dialect.js';
import type {
  Database,
  IntegrationInstallationRow,
  IntegrationRow,
  IntegrationSpaceInstallationRow,
  IntegrationsTable,
  OrganizationRow,
} from '../../db/schema.js';
import { looksLikeId, newId } from '../../lib/ids.js';
import { type Page, paginate } from '../../lib/paging.js';
import { nowIso } from '../../lib/time.js';

export async function findIntegration(db: DbOrTrx, name: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('name', '=', name).executeTakeFirst();
}

/** The organization whose id or hostname (subdomain) is `key`. */
export async function findOrganizationByKey(db: DbOrTrx, key: string) {
  // By id when the key has an id's shape, else by hostname (stored lower-case): never both, as the
  // published sites resolve an organization (src/published/model.ts).
  return db
    .selectFrom('organizations')
    .selectAll()
    .where(looksLikeId(key) ? (eb) => eb('id', '=', key) : (eb) => eb('hostname', '=', key.toLowerCase()))
    .executeTakeFirst();
}

/** Integrations visible to the caller in a list: public ones, and private ones of their organizations. */
function listable(userId: string) {
  return (eb: ExpressionBuilder<Database, 'integrations'>) =>
    eb.or([
      eb('integrations.visibility', '=', 'public'),
      eb.and([
        eb('integrations.visibility', '=', 'private'),
        eb(
          'integrations.organization_id',
          'in',
          eb
            .selectFrom('members')
            .select('members.organization_id')
            .where('members.user_id', '=', userId)
            .where('members.disabled', '=', 0)
            .where('members.role', 'is not', null),
        ),
      ]),
    ]);
}

export interface IntegrationFilters {
  search?: string;
  category?: string;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  owner?: string;
  scope?: string;
  target?: string;
  page?: string;
  limit?: number;
}

const byName = [{ column: 'integrations.name', direction: 'asc' as const, value: (r: IntegrationRow) => r.name }];

export async function listIntegrations(
  db: DbOrTrx,
  userId: string,
  f: IntegrationFilters,
): Promise<Page<IntegrationRow>> {
  let q = db.selectFrom('integrations').selectAll('integrations').where(listable(userId));
  if (f.search) {
    const search = f.search;
    q = q.where((eb) =>
      eb.or([
        containsInsensitive(eb.ref('integrations.name'), search),
        containsInsensitive(eb.ref('integrations.title'), search),
      ]),
    );
  }
  // Categories and scopes are JSON arrays of enum values: `"value"` matches one element exactly.
  if (f.category) {
    const category = f.category;
    q = q.where((eb) => containsInsensitive(eb.ref('integrations.categories'), `"${category}"`));
  }
  if (f.scope) {
    const scope = f.scope;
    q = q.where((eb) => containsInsensitive(eb.ref('integrations.scopes'), `"${scope}"`));
  }
  if (f.target) {
    // Installable on the target: its own target, or `all`.
    q = q.where('integrations.target', 'in', f.target === 'all' ? ['all'] : [f.target, 'all']);
  }
  if (f.blockDomain) {
    const domain = f.blockDomain;
    q = q.where((eb) => containsInsensitive(eb.ref('integrations.block_urls'), domain));
  }
  if (f.blocks !== undefined) q = q.where('integrations.has_blocks', '=', f.blocks ? 1 : 0);
  if (f.contentSources !== undefined) q = q.where('integrations.has_content_sources', '=', f.contentSources ? 1 : 0);
  if (f.owner) q = q.where('integrations.organization_id', '=', f.owner);
  return paginate(q, byName, f);
}

export type IntegrationValues = Omit<IntegrationsTable, 'version' | 'created_at' | 'updated_at' | 'verified'>;

export interface Image {
  slot: string;
  contentType: string;
  data: Buffer;
}

/**
 * Creates the integration (version 1) or replaces its definition (version + 1), with its images.
 * `secrets` undefined keeps the stored secrets. Call it inside a transaction.
 */
export async function saveIntegration(
  db: DbOrTrx,
  values: Omit<IntegrationValues, 'secrets'> & { secrets?: string },
  images: Image[],
  existing: boolean,
): Promise<void> {
  const now = nowIso();
  if (existing) {
    const { name, secrets, ...rest } = values;
    await db
      .updateTable('integrations')
      .set({
        ...rest,
        ...(secrets !== undefined ? { secrets } : {}),
        version: sql`version + 1`,
        updated_at: now,
      })
      .where('name', '=', name)
      .execute();
    await db.deleteFrom('integration_images').where('integration_name', '=', name).execute();
  } else {
    await db
      .insertInto('integrations')
      .values({
        ...values,
        secrets: values.secrets ?? null,
        version: 1,
        verified: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  if (images.length > 0) {
    await db
      .insertInto('integration_images')
      .values(
        images.map((i) => ({
          integration_name: values.name,
          slot: i.slot,
          content_type: i.contentType,
          data: i.data,
        })),
      )
      .execute();
  }
}

export async function findImage(db: DbOrTrx, name: string, slot: string) {
  return db
    .selectFrom('integration_images')
    .select(['content_type', 'data'])
    .where('integration_name', '=', name)
    .where('slot', '=', slot)
    .executeTakeFirst();
}

/** The organizations owning `rows`, by id, in one query (what presenting them needs). */
export async function integrationOwners(db: DbOrTrx, rows: IntegrationRow[]): Promise<Map<string, OrganizationRow>> {
  const owners = await findOrganizationsByIds(db, [...new Set(rows.map((r) => r.organization_id))]);
  return new Map(owners.map((o) => [o.id, o]));
}

export async function findOrganizationsByIds(db: DbOrTrx, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('organizations').selectAll().where('id', 'in', ids).execute();
}

export async function findInstallation(
  db: DbOrTrx,
  integrationName: string,
  installationId: string,
): Promise<IntegrationInstallationRow | undefined> {
  return db
    .selectFrom('integration_installations')
    .selectAll()
    .where('id', '=', installationId)
    .where('integration_name', '=', integrationName)
    .executeTakeFirst();
}

export async function findInstallationInOrg(db: DbOrTrx, integrationName: string, organizationId: string) {
  return db
    .selectFrom('integration_installations')
    .select('id')
    .where('integration_name', '=', integrationName)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function createInstallation(
  db: DbOrTrx,
  integrationName: string,
  organizationId: string,
): Promise<IntegrationInstallationRow> {
  const now = nowIso();
  const row: IntegrationInstallationRow = {
    id: newId(),
    integration_name: integrationName,
    organization_id: organizationId,
    status: 'active',
    configuration: '{}',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('integration_installations').values(row).execute();
  return row;
}

export async function countInstallationSpaces(db: DbOrTrx, installationId: string): Promise<number> {
  const row = await db
    .selectFrom('integration_space_installations')
    .innerJoin('spaces', 'spaces.id', 'integration_space_installations.space_id')
    .select(sql<number>`count(*)`.as('n'))
    .where('integration_space_installations.installation_id', '=', installationId)
    .where('spaces.deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Enables the installation on the space (idempotent); the stored row. */
export async function installOnSpace(
  db: DbOrTrx,
  installation: IntegrationInstallationRow,
  spaceId: string,
): Promise<{ row: IntegrationSpaceInstallationRow; created: boolean }> {
  const inserted = await db
    .insertInto('integration_space_installations')
    .values({
      installation_id: installation.id,
      integration_name: installation.integration_name,
      space_id: spaceId,
      configuration: '{}',
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['installation_id', 'space_id']).doNothing())
    .executeTakeFirst();
  const row = await db
    .selectFrom('integration_space_installations')
    .selectAll()
    .where('installation_id', '=', installation.id)
    .where('space_id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return { row, created: Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0 };
}

/** Integrations installed on a space that the caller may see (private ones only of their organizations). */
function installedOn(db: DbOrTrx, spaceId: string, userId: string, search?: string) {
  let q = db
    .selectFrom('integrations')
    .selectAll('integrations')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('integration_space_installations')
          .select('integration_space_installations.space_id')
          .whereRef('integration_space_installations.integration_name', '=', 'integrations.name')
          .where('integration_space_installations.space_id', '=', spaceId),
      ),
    )
    .where((eb) => eb.or([eb('integrations.visibility', '!=', 'private'), listable(userId)(eb)]));
  if (search) {
    q = q.where((eb) =>
      eb.or([
        containsInsensitive(eb.ref('integrations.name'), search),
        containsInsensitive(eb.ref('integrations.title'), search),
      ]),
    );
  }
  return q;
}

export async function listSpaceIntegrations(
  db: DbOrTrx,
  spaceId: string,
  userId: string,
  f: { search?: string; page?: string; limit?: number },
): Promise<Page<IntegrationRow>> {
  return paginate(installedOn(db, spaceId, userId, f.search), byName, f);
}

export async function spaceIntegrationBlocks(db: DbOrTrx, spaceId: string, userId: string) {
  return installedOn(db, spaceId, userId)
    .where('integrations.has_blocks', '=', 1)
    .orderBy('integrations.name')
    .execute();
}
