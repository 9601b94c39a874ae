import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:8080' });
    expect(config.databaseUrl).toBe('sqlite:data/bindery.sqlite');
  });

  it('reads the fetch guard and job settings', () => {
    expect(loadConfig({})).toMatchObject({
      fetchAllowPrivate: false,
      fetchTimeoutMs: 15_000,
      fetchMaxBytes: 10 * 1024 * 1024,
      jobConcurrency: 2,
      jobPollMs: 1000,
      jobLeaseMs: 60_000,
    });
    const config = loadConfig({
      FETCH_ALLOW_PRIVATE: 'true',
      FETCH_TIMEOUT_MS: '500',
      FETCH_MAX_BYTES: '1024',
      JOB_CONCURRENCY: '0',
      JOB_POLL_MS: '50',
      JOB_LEASE_MS: '3000',
    });
    expect(config).toMatchObject({
      fetchAllowPrivate: true,
      fetchTimeoutMs: 500,
      fetchMaxBytes: 1024,
      jobConcurrency: 0,
      jobPollMs: 50,
      jobLeaseMs: 3000,
    });
    expect(loadConfig({ FETCH_ALLOW_PRIVATE: 'FALSE' }).fetchAllowPrivate).toBe(false);
  });

  it('reads the language model settings (none by default)', () => {
    expect(loadConfig({}).ai).toBeNull();
    expect(
      loadConfig({ AI_BASE_URL: 'http://127.0.0.1:11434/v1/', AI_MODEL: 'llama3.2', AI_TIMEOUT_MS: '2000' }).ai,
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: null, timeoutMs: 2000 });
    expect(
      loadConfig({ AI_BASE_URL: 'https://api.openai.com/v1', AI_MODEL: 'm', AI_API_KEY: 'sk-x' }).ai,
    ).toMatchObject({ apiKey: 'sk-x', timeoutMs: 60_000 });
  });

  it('reads the webhook retry schedule, deactivation delay and audit retention', () => {
    const defaults = loadConfig({});
    expect(defaults.webhookRetrySchedule).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(defaults.webhookDeactivateAfterMs).toBe(3 * 86_400_000);
    expect(defaults.auditRetentionDays).toBe(365);
    const set = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '250ms, 1.5s,2m,1d',
      WEBHOOK_DEACTIVATE_AFTER_DAYS: '0.5',
      AUDIT_RETENTION_DAYS: '30',
    });
    expect(set.webhookRetrySchedule).toEqual([250, 1_500, 120_000, 86_400_000]);
    expect(set.webhookDeactivateAfterMs).toBe(43_200_000);
    expect(set.auditRetentionDays).toBe(30);
  });

  it('reads the insights retention (365 days by default)', () => {
    expect(loadConfig({}).insightsRetentionDays).toBe(365);
    expect(loadConfig({ INSIGHTS_RETENTION_DAYS: '' }).insightsRetentionDays).toBe(365);
    expect(loadConfig({ INSIGHTS_RETENTION_DAYS: '1' }).insightsRetentionDays).toBe(1);
    expect(loadConfig({ INSIGHTS_RETENTION_DAYS: '90' }).insightsRetentionDays).toBe(90);
  });

  it.each(['0', '-1', '-30', 'abc', '30d', '1.5', 'NaN', 'Infinity'])(
    'rejects INSIGHTS_RETENTION_DAYS=%j as not a positive integer',
    (raw) => {
      expect(() => loadConfig({ INSIGHTS_RETENTION_DAYS: raw })).toThrow(ConfigError);
      expect(() => loadConfig({ INSIGHTS_RETENTION_DAYS: raw })).toThrow(
        `INSIGHTS_RETENTION_DAYS must be a positive integer, got "${raw}"`,
      );
    },
  );

  it('accepts file paths, sqlite: URLs and postgres:// URLs', () => {
    expect(loadConfig({ DATABASE_URL: '/tmp/x.db' }).databaseUrl).toBe('sqlite:/tmp/x.db');
    expect(loadConfig({ DATABASE_URL: 'sqlite:y.db' }).databaseUrl).toBe('sqlite:y.db');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/d' }).databaseUrl).toBe('postgres://u@h:5432/d');
    expect(loadConfig({ PUBLIC_URL: 'https://docs.example.com/' }).publicUrl).toBe('https://docs.example.com');
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ BODY_LIMIT: '-5' }, /BODY_LIMIT/],
    [{ PARTNER_KEYS: 'short' }, /PARTNER_KEYS/],
    [{ FETCH_ALLOW_PRIVATE: 'maybe' }, /FETCH_ALLOW_PRIVATE/],
    [{ FETCH_TIMEOUT_MS: '0' }, /FETCH_TIMEOUT_MS/],
    [{ FETCH_MAX_BYTES: '1.5' }, /FETCH_MAX_BYTES/],
    [{ JOB_CONCURRENCY: '-1' }, /JOB_CONCURRENCY/],
    [{ JOB_POLL_MS: 'often' }, /JOB_POLL_MS/],
    [{ JOB_LEASE_MS: '0' }, /JOB_LEASE_MS/],
    [{ AI_BASE_URL: 'ftp://x', AI_MODEL: 'm' }, /AI_BASE_URL/],
    [{ AI_BASE_URL: 'http://127.0.0.1:8000/v1' }, /AI_MODEL/],
    [{ AI_MODEL: 'm' }, /AI_BASE_URL/],
    [{ AI_TIMEOUT_MS: '0' }, /AI_TIMEOUT_MS/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, /WEBHOOK_RETRY_SCHEDULE/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5' }, /WEBHOOK_RETRY_SCHEDULE/],
    [{ WEBHOOK_DEACTIVATE_AFTER_DAYS: '0' }, /WEBHOOK_DEACTIVATE_AFTER_DAYS/],
    [{ AUDIT_RETENTION_DAYS: '1.5' }, /AUDIT_RETENTION_DAYS/],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
