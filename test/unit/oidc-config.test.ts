/** The OIDC_* variables: what start-up accepts and refuses (naming the variable). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = { OIDC_CLIENT_ID: 'bindery', OIDC_CLIENT_SECRET: 'secret' };

describe('OIDC configuration', () => {
  it('is off without OIDC_ISSUER, and reads every variable with it', () => {
    expect(loadConfig({}).oidc).toBeNull();
    const oidc = loadConfig({
      ...base,
      OIDC_ISSUER: 'https://id.example.com/realms/acme',
      OIDC_NAME: 'Acme',
      OIDC_SCOPES: 'profile groups',
      OIDC_ORGANIZATION: 'org1',
      OIDC_DEFAULT_ROLE: 'edit',
    }).oidc;
    expect(oidc).toEqual({
      issuer: 'https://id.example.com/realms/acme',
      clientId: 'bindery',
      clientSecret: 'secret',
      name: 'Acme',
      scopes: ['openid', 'email', 'profile', 'groups'],
      organizationId: 'org1',
      defaultRole: 'edit',
    });
    expect(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.name).toBe('127.0.0.1');
    expect(loadConfig({ ...base, OIDC_ISSUER: 'http://localhost:9000' }).oidc).not.toBeNull();
  });

  it('refuses an http issuer off loopback, a missing client, a bad role, a role without organization', () => {
    const refused: Record<string, string>[] = [
      { ...base, OIDC_ISSUER: 'http://id.example.com' },
      { ...base, OIDC_ISSUER: 'http://10.0.0.1' },
      { ...base, OIDC_ISSUER: 'not a url' },
      { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x' },
      { OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' },
      { ...base, OIDC_ISSUER: 'https://id.example.com', OIDC_ORGANIZATION: 'o', OIDC_DEFAULT_ROLE: 'owner' },
      { ...base, OIDC_ISSUER: 'https://id.example.com', OIDC_DEFAULT_ROLE: 'read' },
    ];
    for (const env of refused) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
  });
});
