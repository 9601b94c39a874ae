import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:8080' });
    expect(config.databaseUrl).toBe('sqlite:data/bindery.sqlite');
    expect(config.fetchAllowPrivate).toBe(false);
    expect(loadConfig({ FETCH_ALLOW_PRIVATE: 'true' }).fetchAllowPrivate).toBe(true);
  });

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
    [{ FETCH_ALLOW_PRIVATE: 'maybe' }, /FETCH_ALLOW_PRIVATE/],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
