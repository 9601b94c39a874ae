import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { decryptSecret, encryptSecret, parseSecretsKey } from '../../src/core/secrets.js';

describe('secrets', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time, and fails on another key, aad or a changed byte', () => {
    const a = encryptSecret(key, 'hello', 'name');
    const b = encryptSecret(key, 'hello', 'name');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hello');
    expect(decryptSecret(key, a, 'name')).toBe('hello');
    expect(() => decryptSecret(randomBytes(32), a, 'name')).toThrow();
    expect(() => decryptSecret(key, a, 'other')).toThrow();
    const parts = a.split('.');
    const tampered = Buffer.from(parts[3] as string, 'base64url');
    tampered[0] = (tampered[0] as number) ^ 1;
    parts[3] = tampered.toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'), 'name')).toThrow();
    expect(() => decryptSecret(key, 'garbage', 'name')).toThrow();
  });

  it('parses 32-byte keys in hex, base64 and base64url only', () => {
    expect(parseSecretsKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64url'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(parseSecretsKey('not a key')).toBeNull();
  });

  it('SECRETS_KEY is validated with a message naming it (and not echoing it)', () => {
    expect(loadConfig({}).secretsKey).toBeNull();
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey?.equals(key)).toBe(true);
    expect(() => loadConfig({ SECRETS_KEY: 'short-secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECRETS_KEY: 'short-secret' })).toThrow(/SECRETS_KEY must be 32 bytes/);
    try {
      loadConfig({ SECRETS_KEY: 'short-secret' });
    } catch (error) {
      expect(String(error)).not.toContain('short-secret');
    }
  });
});
