/**
 * Seeds a benchmark organization straight through Kysely: an admin (through the repos, as the CLI's
 * `bootstrap` does), then 10,000 members, 100 teams and their memberships in batched inserts inside
 * one transaction, and a token for the admin. On PostgreSQL the tables are then analyzed.
 */

import { sql } from 'kysely';
import { createOrganization } from '../src/api/organizations/repo.js';
import { findOrCreateUser } from '../src/api/users/repo.js';
import { newId } from '../src/core/ids.js';
import { createToken } from '../src/core/tokens.js';
import { createDb, isPostgresUrl } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';

export const MEMBERS = 10_000;
export const TEAMS = 100;

export interface Seeded {
  organizationId: string;
  adminId: string;
  token: string;
  /** A seeded member who belongs to several teams (the single-member endpoint reads this one). */
  sampleUserId: string;
  /** Members listed by the API: the seeded ones plus the admin. */
  memberCount: number;
  teamMemberships: number;
  seconds: number;
}

/** Rows per INSERT: keeps the bound parameters well under SQLite's and PostgreSQL's limits. */
const BATCH = 1_000;

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

const ROLE_CYCLE = ['read', 'read', 'read', 'read', 'comment', 'edit', 'edit', 'review', 'create', null] as const;

export async function seed(databaseUrl: string): Promise<Seeded> {
  const started = performance.now();
  const db = createDb(databaseUrl);
  try {
    await migrateToLatest(db);
    const admin = await findOrCreateUser(db, 'admin@bench.example', 'Bench Admin');
    const org = await createOrganization(db, { title: 'Benchmark Org' }, admin.id);
    const { token } = await createToken(db, admin.id);

    // Members join over ~2 hours, five per second, so the (joined_at, user_id) keyset has ties to break.
    const base = Date.parse('2025-01-01T00:00:00.000Z');
    const users: Database['users'][] = [];
    const members: Database['members'][] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const id = newId();
      const joined = new Date(base + Math.floor(i / 5) * 1000).toISOString();
      users.push({
        id,
        email: `member${i}@bench.example`,
        display_name: `Member ${String(i).padStart(5, '0')}`,
        photo_url: null,
        created_at: joined,
      });
      members.push({
        organization_id: org.id,
        user_id: id,
        role: i % 500 === 0 ? 'admin' : ROLE_CYCLE[i % ROLE_CYCLE.length]!,
        disabled: i % 97 === 0 ? 1 : 0,
        sso: 0,
        joined_at: joined,
        last_seen_at: i % 2 === 0 ? new Date(base + 86_400_000 + i * 1000).toISOString() : null,
      });
    }
    const now = new Date().toISOString();
    const teams: Database['teams'][] = Array.from({ length: TEAMS }, (_, t) => ({
      id: newId(),
      organization_id: org.id,
      title: `Team ${String(t).padStart(3, '0')}`,
      created_at: now,
    }));
    // The first 6,000 members are in one team, every third of them in a second one as well;
    // the admin owns team 0 and each team's first member owns it too.
    const teamMembers: Database['team_members'][] = [
      { team_id: teams[0]!.id, user_id: admin.id, role: 'owner', created_at: now },
    ];
    for (let i = 0; i < 6_000; i++) {
      const userId = users[i]!.id;
      const first = teams[i % TEAMS]!.id;
      teamMembers.push({ team_id: first, user_id: userId, role: i < TEAMS ? 'owner' : 'member', created_at: now });
      if (i % 3 === 0) {
        const second = teams[(i * 7 + 1) % TEAMS]!.id;
        if (second !== first) teamMembers.push({ team_id: second, user_id: userId, role: 'member', created_at: now });
      }
    }

    await db.transaction().execute(async (trx) => {
      for (const batch of chunks(users, BATCH)) await trx.insertInto('users').values(batch).execute();
      for (const batch of chunks(members, BATCH)) await trx.insertInto('members').values(batch).execute();
      await trx.insertInto('teams').values(teams).execute();
      for (const batch of chunks(teamMembers, BATCH)) await trx.insertInto('team_members').values(batch).execute();
    });
    // PostgreSQL's autovacuum analyzes tables this size within a minute of the load, so a running
    // server plans with statistics: give them now. SQLite is left as the server leaves it (Bindery
    // never runs ANALYZE or PRAGMA optimize there), so its plans are the ones production gets.
    if (isPostgresUrl(databaseUrl)) await sql`analyze`.execute(db);

    return {
      organizationId: org.id,
      adminId: admin.id,
      token,
      sampleUserId: users[3_003]!.id,
      memberCount: MEMBERS + 1,
      teamMemberships: teamMembers.length,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await db.destroy();
  }
}
