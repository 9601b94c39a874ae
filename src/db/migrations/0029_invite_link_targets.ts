/**
 * Invite links to a space or a collection (the official `CreateInviteToSpace` and
 * `CreateInviteToCollection`): `target_type` (`space` or `collection`) and `target_id` name it, and
 * the link's `role` column is then the level granted there (the joiner becomes a guest of the
 * organization). Both null: an invite to the organization, as before. No foreign key, the target
 * being either table; a link whose target is gone stops working.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invite_links').addColumn('target_type', 'text').execute();
  await db.schema.alterTable('invite_links').addColumn('target_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invite_links').dropColumn('target_id').execute();
  await db.schema.alterTable('invite_links').dropColumn('target_type').execute();
}
