/**
 * The world of the mixed-traffic bench (bench/mixed.ts), seeded through the API as its users would:
 * `bindery bootstrap` for the admin and the first organization, then over HTTP the other
 * organizations, {@link MEMBERS_PER_ORG} invited members in each (a mix of roles), and in each
 * organization BENCH_MIXED_SPACES spaces holding BENCH_MIXED_PAGES pages (written by a change request
 * and merged) and an open change request. Four members of each organization get a token (200 for 50
 * organizations), made as `bindery token create` makes them (`issueToken`, in this process on the
 * same database: the API makes tokens only for the signed-in user themself).
 */
import { findUserById } from '../src/api/users/repo.js';
import { loadConfig } from '../src/config.js';
import { cliActor } from '../src/core/service.js';
import { createDb } from '../src/db/database.js';
import { Urls } from '../src/lib/urls.js';
import { issueToken } from '../src/services/tokens.js';
import { Api, bootstrap } from './seed.js';
import { MIXED_ORGS, MIXED_PAGES, MIXED_SPACES, ROOT } from './settings.js';

/** Invited members per organization; the first four hold the organization's tokens. */
export const MEMBERS_PER_ORG = 20;
/** The roles of the other invited members, in turn. */
const OTHER_ROLES = ['read', 'read', 'read', 'comment', 'edit', 'edit', 'review', 'create'] as const;
/** The third token holder's role, in turn over the organizations (the others: admin, edit, read). */
const THIRD_ROLES = ['comment', 'review', 'create', 'read'] as const;

export interface MixedToken {
  token: string;
  role: string;
}

export interface MixedChangeRequest {
  id: string;
  /** Its revision as last answered (the editor's If-Match). */
  revision: string;
  /** The page the autosaves edit, and the document they send (a marker in it changes each time). */
  pageId: string;
}

export interface MixedSpace {
  id: string;
  organizationId: string;
  pages: string[];
  changeRequest: MixedChangeRequest;
}

export interface MixedOrg {
  id: string;
  /** Admin, edit, a reviewer, commenter, creator or reader, and a reader. */
  tokens: MixedToken[];
  members: string[];
  spaces: MixedSpace[];
}

export interface MixedWorld {
  organizations: MixedOrg[];
  /** The bootstrap admin's token (admin of every organization; used for the checks, not the load). */
  adminToken: string;
  /** The JSON document autosaves send, with {@link MARKER} where each puts its own text. */
  documentTemplate: string;
  seconds: number;
}

export const MARKER = 'autosave-marker-0000';

/** About 300 words in a few blocks: what an editor's autosave sends for a page of ordinary length. */
export function pageMarkdown(title: string, words = 300): string {
  const vocabulary = 'people write documentation pages together and the server keeps each change safe'.split(' ');
  const paragraphs: string[] = [`# ${title}`, MARKER];
  for (let count = 0, p = 0; count < words; p++) {
    const sentence = Array.from({ length: 50 }, (_, i) => vocabulary[(p + i) % vocabulary.length]);
    paragraphs.push(
      p % 3 === 2
        ? `- ${sentence.slice(0, 12).join(' ')}\n- ${sentence.slice(12, 24).join(' ')}`
        : `${sentence.join(' ')}.`,
    );
    count += 50;
  }
  return paragraphs.join('\n\n');
}

/** Runs `tasks` with at most `width` in flight. */
async function inParallel(width: number, tasks: (() => Promise<unknown>)[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) await (tasks[next++] as () => Promise<unknown>)();
    }),
  );
}

async function seedSpace(api: Api, organizationId: string, title: string): Promise<MixedSpace> {
  const space = await api.call('POST', `/orgs/${organizationId}/spaces`, { title });
  const base = `/spaces/${space.id}/change-requests`;
  const seedCr = await api.call('POST', base, { subject: 'First pages' });
  const changes = Array.from({ length: MIXED_PAGES }, (_, p) => ({
    operation: 'insert_page',
    title: `Page ${p}`,
    document: { markdown: pageMarkdown(`${title}, page ${p}`) },
  }));
  const written = await api.call('POST', `${base}/${seedCr.id}/content?compat=false`, { changes });
  const pages = (written.changes as { object: string; page: { id: string } }[])
    .filter((c) => c.object === 'created_page')
    .map((c) => c.page.id);
  await api.call('POST', `${base}/${seedCr.id}/merge`, {});
  const open = await api.call('POST', base, { subject: 'Draft' });
  return {
    id: space.id,
    organizationId,
    pages,
    changeRequest: { id: open.id, revision: open.revision, pageId: pages[0] as string },
  };
}

export async function seedMixed(
  baseUrl: string,
  ids: { token: string; userId: string; organizationId: string },
  databaseUrl: string,
  progress: (line: string) => void,
): Promise<MixedWorld> {
  const started = performance.now();
  const api = new Api(baseUrl, ids.token);
  const phase = (name: string) => progress(`${name} at ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const organizations: MixedOrg[] = [{ id: ids.organizationId, tokens: [], members: [], spaces: [] }];
  for (let o = 1; o < MIXED_ORGS; o++) {
    const org = await api.call('POST', '/orgs', { title: `Mixed Org ${String(o).padStart(2, '0')}` });
    organizations.push({ id: org.id, tokens: [], members: [], spaces: [] });
  }
  const holders: { org: MixedOrg; userId: string; role: string }[] = [];
  await inParallel(
    2,
    organizations.map((org, o) => async () => {
      const roles = ['admin', 'edit', THIRD_ROLES[o % THIRD_ROLES.length], 'read'] as string[];
      for (let i = roles.length; i < MEMBERS_PER_ORG; i++) roles.push(OTHER_ROLES[i % OTHER_ROLES.length] as string);
      const emails = roles.map((role, i) => ({ email: `m${o}-${i}@mixed.example`, role }));
      const invited = await api.call<{ users: string[] }>('POST', `/orgs/${org.id}/invites`, { emails });
      org.members = invited.users;
      for (let i = 0; i < 4; i++) holders.push({ org, userId: invited.users[i] as string, role: roles[i] as string });
    }),
  );
  phase(`${organizations.length} organizations with ${MEMBERS_PER_ORG} members each`);

  const db = createDb(databaseUrl);
  try {
    const urls = new Urls(loadConfig({ ...process.env, DATABASE_URL: databaseUrl }).publicUrl);
    for (const holder of holders) {
      const user = await findUserById(db, holder.userId);
      if (!user) throw new Error(`invited user ${holder.userId} not found`);
      const { token } = await issueToken({ db, urls, actor: cliActor(user) }, user);
      holder.org.tokens.push({ token, role: holder.role });
    }
  } finally {
    await db.destroy();
  }
  phase(`${holders.length} tokens`);

  const tasks = organizations.flatMap((org, o) =>
    Array.from({ length: MIXED_SPACES }, (_, s) => async () => {
      org.spaces[s] = await seedSpace(api, org.id, `Org ${o} space ${s}`);
    }),
  );
  let done = 0;
  await inParallel(
    4,
    tasks.map((task) => async () => {
      await task();
      if (++done % 200 === 0) phase(`${done} spaces`);
    }),
  );
  phase(`${done} spaces with ${MIXED_PAGES} pages and an open change request each`);

  const first = organizations[0]?.spaces[0] as MixedSpace;
  const page = await api.call(
    'GET',
    `/spaces/${first.id}/change-requests/${first.changeRequest.id}/content/page/${first.changeRequest.pageId}`,
  );
  const documentTemplate = JSON.stringify(page.document);
  if (!documentTemplate.includes(MARKER)) throw new Error('the seeded page lost its marker paragraph');
  return { organizations, adminToken: ids.token, documentTemplate, seconds: (performance.now() - started) / 1000 };
}

/** `bindery bootstrap` on `databaseUrl`: the admin, the first organization and the admin's token. */
export const bootstrapMixed = (databaseUrl: string) => bootstrap(ROOT, databaseUrl);
