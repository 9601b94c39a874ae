import { describe, expect, it } from 'vitest';
import { inviteLinkBody, inviteLinkTargetLabel, ORGANIZATION_TARGET } from './targets';

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
