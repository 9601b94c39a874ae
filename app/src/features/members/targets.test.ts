import { describe, expect, it } from 'vitest';
import { inviteLinkBody, inviteLinkLimits, inviteLinkTargetLabel, ORGANIZATION_TARGET } from './targets';

describe('an invite link target', () => {
  it('becomes the official variant of createOrganizationInvite', () => {
    expect(inviteLinkBody(ORGANIZATION_TARGET, 'edit')).toEqual({ role: 'edit' });
    expect(inviteLinkBody(ORGANIZATION_TARGET, null)).toEqual({ role: null });
    expect(inviteLinkBody('space:sp_1', 'read')).toEqual({ level: 'read', space: 'sp_1' });
    expect(inviteLinkBody('collection:c:2', 'comment')).toEqual({ level: 'comment', collection: 'c:2' });
  });

  it('refuses what names no target', () => {
    expect(() => inviteLinkBody('space:', 'read')).toThrow('unknown invite target');
    expect(() => inviteLinkBody('site:x', 'read')).toThrow('unknown invite target');
  });

  it('is named by its space, its collection, or the organization', () => {
    expect(inviteLinkTargetLabel({ space: { id: 's', title: 'Handbook' } })).toBe('Space: Handbook');
    expect(inviteLinkTargetLabel({ collection: { id: 'c', title: 'Guides' } })).toBe('Collection: Guides');
    expect(inviteLinkTargetLabel({})).toBe('The whole organization');
  });
});

describe('the limits of a new invite link', () => {
  const utcEnd = (date: string) => new Date(`${date}T23:59:59.999Z`);
  it('is no limit when both fields are empty', () => {
    expect(inviteLinkLimits('', '', utcEnd)).toEqual({});
    expect(inviteLinkLimits('', '  ', utcEnd)).toEqual({});
  });
  it('works to the end of the chosen day', () => {
    expect(inviteLinkLimits('2030-05-01', '', utcEnd)).toEqual({ expiresAt: '2030-05-01T23:59:59.999Z' });
  });
  it('takes a whole number of uses from 1', () => {
    expect(inviteLinkLimits('', '1', utcEnd)).toEqual({ maxUses: 1 });
    expect(inviteLinkLimits('2030-05-01', '25', utcEnd)).toEqual({
      expiresAt: '2030-05-01T23:59:59.999Z',
      maxUses: 25,
    });
  });
  it('names the field of a bad value', () => {
    expect(inviteLinkLimits('', '0', utcEnd)).toEqual({ error: 'Maximum uses: a whole number from 1' });
    expect(inviteLinkLimits('', '2.5', utcEnd)).toEqual({ error: 'Maximum uses: a whole number from 1' });
    expect(inviteLinkLimits('tomorrow', '', utcEnd)).toEqual({ error: 'Expires on: not a date' });
    expect(inviteLinkLimits('2030-13-45', '', utcEnd)).toEqual({ error: 'Expires on: not a date' });
  });
});
