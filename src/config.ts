/**
 * Runtime configuration, read once from the environment and validated at start-up so that a bad
 * value stops the process with a message naming the variable instead of failing later.
 */
import path from 'node:path';
import { parseSecretsKey } from './core/secrets.js';

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
  /** AES-256-GCM key for secrets at rest (`SECRETS_KEY`); null: generated and kept in the database. */
  secretsKey: Buffer | null;
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

function parseSecretsKeyVar(raw: string | undefined): Buffer | null {
  if (raw === undefined || raw === '') return null;
  const key = parseSecretsKey(raw);
  if (!key) {
    throw new ConfigError('SECRETS_KEY must be 32 bytes written as 64 hex characters or as base64 (44 characters)');
  }
  return key;
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
    secretsKey: parseSecretsKeyVar(env.SECRETS_KEY),
  };
}
