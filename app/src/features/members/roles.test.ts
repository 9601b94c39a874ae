import { describe, expect, it } from 'vitest';
import { parseEmails, ROLE_OPTIONS, roleFromValue, roleLabel, roleValue } from './roles';

describe('the invite box', () => {
  it('splits on commas, semicolons, spaces and new lines, and keeps each address once (any case)', () => {
    expect(
      parseEmails(' Ann@Example.com, bob@example.com;\ncarol@example.org  ann@example.com <dan@example.net>'),
    ).toEqual({
      emails: ['Ann@Example.com', 'bob@example.com', 'carol@example.org', 'dan@example.net'],
      invalid: [],
    });
  });

  it('names what is not an address, and gives nothing for blank input', () => {
    expect(parseEmails('ann@example.com, not-an-address, @example.com, eve@nodot')).toEqual({
      emails: ['ann@example.com'],
      invalid: ['not-an-address', '@example.com', 'eve@nodot'],
    });
    expect(parseEmails(' \n ,; ')).toEqual({ emails: [], invalid: [] });
  });
});

describe('roles on screen', () => {
  it('shows a guest (null) as the value "guest" and turns it back', () => {
    expect(roleValue(null)).toBe('guest');
    expect(roleFromValue('guest')).toBeNull();
    expect(roleLabel(null)).toBe('Guest');
  });

  it('round-trips every role offered, and refuses a value it does not know', () => {
    for (const option of ROLE_OPTIONS) expect(roleValue(roleFromValue(option.value))).toBe(option.value);
    expect(ROLE_OPTIONS.map((o) => o.value)).toEqual(['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest']);
    expect(() => roleFromValue('owner')).toThrow('unknown role "owner"');
  });
});
