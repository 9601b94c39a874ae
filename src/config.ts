/**
 * Runtime configuration, read once from the environment and validated at start-up so that a bad
 * value stops the process with a message naming the variable instead of failing later.
 */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** `sqlite:<file>` / a file path / `:memory:`, or a `postgres://` URL. */
  databaseUrl: string;
  /** Base of every `urls.*` field we return, without a trailing slash. */
  publicUrl: string;
  logLevel: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Let server-side fetches (imports, files by URL) reach private, loopback and link-local addresses. */
  fetchAllowPrivate: boolean;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function parseUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http or https, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, '');
}

function parseDatabaseUrl(raw: string | undefined): string {
  if (raw === undefined || raw === '') return `sqlite:${path.join('data', 'bindery.sqlite')}`;
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`DATABASE_URL is not a valid postgres:// URL: "${raw}"`);
    }
    return raw;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError(`DATABASE_URL must be a file path, a sqlite: URL or a postgres:// URL, got "${raw}"`);
  }
  return raw.startsWith('sqlite:') ? raw : `sqlite:${raw}`;
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Reads the configuration from `env`; throws {@link ConfigError} naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  const host = env.HOST || '127.0.0.1';
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const publicUrl = env.PUBLIC_URL
    ? parseUrl('PUBLIC_URL', env.PUBLIC_URL)
    : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    host,
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    publicUrl,
    logLevel,
    bodyLimit: parsePositiveInt('BODY_LIMIT', env.BODY_LIMIT, 10 * 1024 * 1024),
    fetchAllowPrivate: parseBoolean('FETCH_ALLOW_PRIVATE', env.FETCH_ALLOW_PRIVATE, false),
  };
}
