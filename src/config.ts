/**
 * Runtime configuration, read once from the environment and validated at start-up so that a bad
 * value stops the process with a message naming the variable instead of failing later.
 */
import os from 'node:os';
import path from 'node:path';
import { parseSecretsKey } from './core/secrets.js';
import { type OidcConfig, parseOidc } from './lib/oidc-config.js';

export type { OidcConfig } from './lib/oidc-config.js';

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
  /**
   * Whether outbound fetches of user-given URLs (OpenAPI sources, imports) may reach private,
   * loopback and link-local addresses. Off by default so the server cannot be used to probe the
   * network it runs in.
   */
  fetchAllowPrivate: boolean;
  /** Time limit of one outbound fetch, redirects included, in milliseconds. */
  fetchTimeoutMs: number;
  /** Largest body one outbound fetch may return, in bytes (after decompression). */
  fetchMaxBytes: number;
  /** How many background jobs this process runs at once; 0 runs none (an API-only process). */
  jobConcurrency: number;
  /** How often an idle worker looks for new jobs, in milliseconds. */
  jobPollMs: number;
  /** Keys partners present in `X-Service-Partner-Key` to call the ads operations (`PARTNER_KEYS`). */
  partnerKeys: string[];
  /** How long a claimed job stays claimed without a heartbeat before another process may take it over. */
  jobLeaseMs: number;
  /**
   * The language model answering questions, an OpenAI-compatible chat-completions endpoint
   * (`AI_BASE_URL`, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1` for Ollama);
   * null: answers are extractive (built from the best passages, no model).
   */
  ai: AiConfig | null;
  /** How often a server-sent stream sends a heartbeat comment while it has nothing else to send. */
  sseHeartbeatMs: number;
  /** Requests one token (or one client address without a token) may make per minute; 0: no limit. */
  rateLimitPerMinute: number;
  /** Redis holding the rate-limit counts, shared by every process (`redis://…`); null: counts per process. */
  redisUrl: string | null;
  /** Bearer token that `GET /metrics` requires; null: `/metrics` is not served. */
  metricsToken: string | null;
  /**
   * Which proxies' `X-Forwarded-For` to believe for the client address (rate limits by address):
   * false (none), true (any), a hop count, or a list of addresses/CIDRs. Passed to Fastify's `trustProxy`.
   */
  trustProxy: boolean | number | string[];
  /** Delays before each retry of a failed webhook delivery, in milliseconds (`WEBHOOK_RETRY_SCHEDULE`). */
  webhookRetrySchedule: number[];
  /** A webhook whose deliveries have all failed for this long is deactivated (`WEBHOOK_DEACTIVATE_AFTER_DAYS`). */
  webhookDeactivateAfterMs: number;
  /** How long events stay in the audit log, in days (`AUDIT_RETENTION_DAYS`). */
  auditRetentionDays: number;
  /** How long published sites' insight events are kept, in days (`INSIGHTS_RETENTION_DAYS`). */
  insightsRetentionDays: number;
  /**
   * Server processes on the port (`WORKERS`, node:cluster), each with its own database pool.
   * PostgreSQL: default the number of cores. SQLite: 1, and more is refused (its resource locks
   * and write transactions serialize within one process only).
   */
  workers: number;
  /**
   * Memory for GET answers served again until the data changes (`RESPONSE_CACHE_MB`, in bytes;
   * 0: off). See src/http/response-cache.ts.
   */
  responseCacheBytes: number;
  /**
   * Count, per route, why the response cache missed (`RESPONSE_CACHE_DIAGNOSIS=1`, default off; a
   * metric, for benchmarks and tuning: src/http/cache-diagnosis.ts).
   */
  responseCacheDiagnosis: boolean;
  /** A browser session unused this long ends (`SESSION_IDLE_DAYS`, default 14), in milliseconds. */
  sessionIdleMs: number;
  /** A browser session ends this long after sign-in however used (`SESSION_MAX_DAYS`, default 30), in ms. */
  sessionMaxMs: number;
  /** Outgoing mail (password resets, invitations); null: none is sent (`SMTP_URL`, `MAIL_FROM`). */
  smtp: SmtpConfig | null;
  /** Sign-in through an OpenID Connect provider (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`); null: none. */
  oidc: OidcConfig | null;
}

export interface SmtpConfig {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: string;
  /** The From address of every message. */
  from: string;
}

export interface AiConfig {
  /** Base URL of the API, without a trailing slash; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; null for servers that need none (Ollama, llama.cpp). */
  apiKey: string | null;
  /** Deadline of one model call (the whole streamed completion); past it the answer is extractive. */
  timeoutMs: number;
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

function parsePartnerKeys(raw: string | undefined): string[] {
  const keys = (raw ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.some((k) => k.length < 16))
    throw new ConfigError('PARTNER_KEYS entries must be at least 16 characters each');
  return keys;
}

function parseWorkers(raw: string | undefined, databaseUrl: string): number {
  const postgres = /^postgres(ql)?:\/\//.test(databaseUrl);
  const workers = parsePositiveInt('WORKERS', raw, postgres ? os.availableParallelism() : 1);
  if (workers > 1 && !postgres) {
    throw new ConfigError(
      `WORKERS must be 1 with SQLite, got ${workers}: several processes would write one file without the ` +
        'per-resource locks (use PostgreSQL to run several workers)',
    );
  }
  return workers;
}

function parseNonNegativeInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parseAi(env: NodeJS.ProcessEnv): AiConfig | null {
  const baseUrl = env.AI_BASE_URL?.trim();
  const model = env.AI_MODEL?.trim();
  const apiKey = env.AI_API_KEY?.trim() || null;
  const timeoutMs = parsePositiveInt('AI_TIMEOUT_MS', env.AI_TIMEOUT_MS, 60_000);
  if (!baseUrl) {
    if (model || apiKey) throw new ConfigError('AI_MODEL and AI_API_KEY need AI_BASE_URL (the model endpoint)');
    return null;
  }
  if (!model) throw new ConfigError('AI_BASE_URL needs AI_MODEL (the model name the endpoint serves)');
  return { baseUrl: parseUrl('AI_BASE_URL', baseUrl), model, apiKey, timeoutMs };
}

function parseRedisUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got "${raw}"`);
  }
  return raw.trim();
}

function parseMetricsToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  // A guessable token would publish the server's traffic and internals.
  if (raw.length < 16 || /\s/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters, without spaces');
  }
  return raw;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.some((e) => !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(e))) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count or comma-separated addresses/CIDRs, got "${raw}"`,
    );
  }
  return entries;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,30m,2h,5h,10h` → milliseconds; at least one delay. */
export function parseRetrySchedule(name: string, raw: string | undefined, fallback: string): number[] {
  const text = raw === undefined || raw.trim() === '' ? fallback : raw;
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) {
      throw new ConfigError(
        `${name} must be comma-separated durations such as 5s,5m,2h (ms, s, m, h, d), got "${raw}"`,
      );
    }
    return Math.round(Number(match[1]) * (DURATION_UNITS[match[2] as string] as number));
  });
}

function parsePositiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function parseSmtp(env: NodeJS.ProcessEnv, publicUrl: string): SmtpConfig | null {
  const raw = env.SMTP_URL?.trim();
  if (!raw) {
    if (env.MAIL_FROM?.trim()) throw new ConfigError('MAIL_FROM needs SMTP_URL (the server that sends the mail)');
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    // The URL may hold a password: it is not repeated in the message.
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL with a host');
  }
  const from = env.MAIL_FROM?.trim() || `Bindery <bindery@${new URL(publicUrl).hostname}>`;
  return { url: raw, from };
}

/** `parse()`, its error a {@link ConfigError} (parsers of src/lib know nothing of this module). */
function configured<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
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
    fetchAllowPrivate: parseBoolean('FETCH_ALLOW_PRIVATE', env.FETCH_ALLOW_PRIVATE, false),
    fetchTimeoutMs: parsePositiveInt('FETCH_TIMEOUT_MS', env.FETCH_TIMEOUT_MS, 15_000),
    fetchMaxBytes: parsePositiveInt('FETCH_MAX_BYTES', env.FETCH_MAX_BYTES, 10 * 1024 * 1024),
    jobConcurrency: parseNonNegativeInt('JOB_CONCURRENCY', env.JOB_CONCURRENCY, 2),
    jobPollMs: parsePositiveInt('JOB_POLL_MS', env.JOB_POLL_MS, 1_000),
    jobLeaseMs: parsePositiveInt('JOB_LEASE_MS', env.JOB_LEASE_MS, 60_000),
    partnerKeys: parsePartnerKeys(env.PARTNER_KEYS),
    ai: parseAi(env),
    sseHeartbeatMs: parsePositiveInt('SSE_HEARTBEAT_MS', env.SSE_HEARTBEAT_MS, 15_000),
    rateLimitPerMinute: parseNonNegativeInt('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 600),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    webhookRetrySchedule: parseRetrySchedule(
      'WEBHOOK_RETRY_SCHEDULE',
      env.WEBHOOK_RETRY_SCHEDULE,
      '5s,5m,30m,2h,5h,10h',
    ),
    webhookDeactivateAfterMs:
      parsePositiveNumber('WEBHOOK_DEACTIVATE_AFTER_DAYS', env.WEBHOOK_DEACTIVATE_AFTER_DAYS, 3) * 86_400_000,
    auditRetentionDays: parsePositiveInt('AUDIT_RETENTION_DAYS', env.AUDIT_RETENTION_DAYS, 365),
    insightsRetentionDays: parsePositiveInt('INSIGHTS_RETENTION_DAYS', env.INSIGHTS_RETENTION_DAYS, 365),
    workers: parseWorkers(env.WORKERS, parseDatabaseUrl(env.DATABASE_URL)),
    responseCacheBytes: parseNonNegativeInt('RESPONSE_CACHE_MB', env.RESPONSE_CACHE_MB, 64) * 1024 * 1024,
    responseCacheDiagnosis: parseBoolean('RESPONSE_CACHE_DIAGNOSIS', env.RESPONSE_CACHE_DIAGNOSIS, false),
    sessionIdleMs: parsePositiveNumber('SESSION_IDLE_DAYS', env.SESSION_IDLE_DAYS, 14) * 86_400_000,
    sessionMaxMs: parsePositiveNumber('SESSION_MAX_DAYS', env.SESSION_MAX_DAYS, 30) * 86_400_000,
    smtp: parseSmtp(env, publicUrl),
    oidc: configured(() => parseOidc(env)),
  };
}
