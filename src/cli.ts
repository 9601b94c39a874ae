/**
 * The `bindery` command: serve, migrate, bootstrap, token create|revoke, user set-password|reset-link,
 * backup, restore.
 * Machine-readable results go to stdout as one JSON line; messages go to stderr.
 */
import { parseArgs } from 'node:util';
import { createOrganization } from './api/organizations/service.js';
import { findOrCreateUser, findUserByEmail, findUserById } from './api/users/repo.js';
import { issueResetLink, setPassword } from './auth/service.js';
import { ConfigError, loadConfig } from './config.js';
import { cliActor } from './core/service.js';
import { findToken, parseDuration } from './core/tokens.js';
import { BackupError, backupSqlite, postgresAdvice, restoreSqlite } from './db/backup.js';
import { createDb, type Db, isPostgresUrl } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { ApiError } from './lib/errors.js';
import { isScope, SCOPES, type Scope } from './lib/scopes.js';
import { Urls } from './lib/urls.js';
import { startServer } from './server.js';
import { issueToken, revokeIssuedToken } from './services/tokens.js';
import { ensureAppBuilt } from './web/build.js';

const USAGE = `usage:
  bindery serve                      start the HTTP server (migrates first)
  bindery migrate                    run database migrations
  bindery bootstrap --email <e> --name <n> --org <title>
                                     create a user, an organization they administer, and a token
  bindery token create --email <e> [--scopes a,b] [--expires 30d]
  bindery token revoke <token-id>
  bindery user set-password --email <e>
                                     set the user's password, read from standard input (at least
                                     10 characters); ends every session of the user
  bindery user reset-link --email <e>
                                     print a password reset link (single use, 30 minutes)
  bindery backup <file>              SQLite: a consistent copy, also while the server runs
                                     (PostgreSQL: prints the pg_dump command to run)
  bindery restore <file>             SQLite: replace the database with a backup, server stopped
                                     (PostgreSQL: prints the pg_restore command to run)

environment: PORT, HOST, DATABASE_URL, PUBLIC_URL, LOG_LEVEL, BODY_LIMIT (see README)`;

/** Standard input, whole, without the line break that ends it (`echo … |` or typing then Ctrl-D). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

class UsageError extends Error {}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

async function withDb<T>(fn: (db: Db) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const db = createDb(loadConfig().databaseUrl);
  try {
    if (options.migrate !== false) await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

function parseScopes(raw: string | undefined): Scope[] | undefined {
  if (!raw) return undefined;
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new UsageError(`unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
  return scopes as Scope[];
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
    },
  });
  switch (command) {
    case 'serve':
    case undefined:
      await ensureAppBuilt((message) => process.stderr.write(`bindery: ${message}\n`));
      return startServer(loadConfig());
    case 'migrate': {
      await withDb(
        async (db) => {
          const result = await migrateToLatest(db);
          process.stderr.write(`migrations applied: ${result.results?.length ?? 0}\n`);
        },
        { migrate: false },
      );
      return;
    }
    case 'bootstrap': {
      const email = required(values, 'email');
      const name = required(values, 'name');
      const title = required(values, 'org');
      if (title.length < 2 || title.length > 255) throw new UsageError('--org must be 2 to 255 characters');
      const out = await withDb(async (db) => {
        const user = await findOrCreateUser(db, email, name);
        const ctx = { db, urls: new Urls(loadConfig().publicUrl), actor: cliActor(user) };
        const org = await createOrganization(ctx, { title });
        const token = await issueToken(ctx, user);
        return { token: token.token, userId: user.id, organizationId: org.id };
      });
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return;
    }
    case 'token': {
      const [action, id] = positionals;
      if (action === 'create') {
        const email = required(values, 'email');
        const scopes = parseScopes(values.scopes);
        let expiresAt: Date | undefined;
        if (values.expires) {
          const ms = parseDuration(values.expires);
          if (ms === null) throw new UsageError('--expires takes a duration such as 30d, 12h, 15m');
          expiresAt = new Date(Date.now() + ms);
        }
        const out = await withDb(async (db) => {
          const user = await findUserByEmail(db, email);
          if (!user) throw new UsageError(`no user with e-mail ${email}`);
          const ctx = { db, urls: new Urls(loadConfig().publicUrl), actor: cliActor(user) };
          const token = await issueToken(ctx, user, { scopes, expiresAt });
          return { token: token.token, tokenId: token.id, expiresAt: token.expiresAt };
        });
        process.stdout.write(`${JSON.stringify(out)}\n`);
        return;
      }
      if (action === 'revoke') {
        if (!id) throw new UsageError('token revoke takes the token id');
        const found = await withDb(async (db) => {
          const token = await findToken(db, id);
          const owner = token && (await findUserById(db, token.user_id));
          // Recorded as done by the token's user from the CLI, as `token create` and `bootstrap` are.
          return owner
            ? revokeIssuedToken({ db, urls: new Urls(loadConfig().publicUrl), actor: cliActor(owner) }, id)
            : false;
        });
        if (!found) throw new UsageError(`no token with id ${id}`);
        process.stderr.write(`token ${id} revoked\n`);
        return;
      }
      throw new UsageError('token takes create or revoke');
    }
    case 'user': {
      const [action] = positionals;
      if (action !== 'set-password' && action !== 'reset-link')
        throw new UsageError('user takes set-password or reset-link');
      const email = required(values, 'email');
      const password = action === 'set-password' ? await readStdin() : '';
      const out = await withDb(async (db) => {
        const user = await findUserByEmail(db, email);
        if (!user) throw new UsageError(`no user with e-mail ${email}`);
        const ctx = { db, urls: new Urls(loadConfig().publicUrl), actor: cliActor(user) };
        if (action === 'reset-link') return { link: await issueResetLink(ctx, user) };
        await setPassword(ctx, user, password);
        return null;
      });
      if (out) process.stdout.write(`${JSON.stringify(out)}\n`);
      else process.stderr.write(`password of ${email} set; their sessions have ended\n`);
      return;
    }
    case 'backup':
    case 'restore': {
      const [file] = positionals;
      if (!file || positionals.length > 1) throw new UsageError(`${command} takes one file name`);
      const { databaseUrl } = loadConfig();
      if (isPostgresUrl(databaseUrl)) {
        // Not done here: PostgreSQL's own tools do it (and do it better). Exit 1: nothing was written.
        const advice = postgresAdvice(databaseUrl, command, file);
        process.stderr.write(`bindery: ${advice.note} Run:\n`);
        process.stdout.write(`${advice.command}\n`);
        process.exitCode = 1;
        return;
      }
      const result =
        command === 'backup' ? await backupSqlite(databaseUrl, file) : await restoreSqlite(databaseUrl, file);
      process.stdout.write(
        `${JSON.stringify({ [command === 'backup' ? 'backup' : 'restored']: result.file, bytes: result.bytes, migrations: result.migrations })}\n`,
      );
      return;
    }
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof BackupError) {
    process.stderr.write(`bindery: ${error.message}\n`);
    process.exit(1);
  }
  if (error instanceof ApiError) {
    process.stderr.write(`bindery: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`bindery: ${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exit(2);
  }
  process.stderr.write(`bindery: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
