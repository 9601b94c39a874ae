/**
 * Contract test of invite links, joining an organization and users by id: every operation driven
 * through the official `@gitbook/api` client, every answer validated against the official schemas.
 * The details (limits, events, mail, the HTML page) are in test/api/invites.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { official } from './official.js';
import { newMember, newOrg, newOutsider, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

useContractServer();

const OPERATIONS = [
  'createOrganizationInvite',
  'listOrganizationInviteLinks',
  'getOrganizationInviteLink',
  'updateOrganizationInviteById',
  'deleteOrganizationInviteById',
  'joinOrganizationWithInvite',
  'joinOrganization',
  'getUserById',
  'updateUserById',
] as const;

/** A new organization with invite links turned on. */
async function orgWithLinks() {
  const org = await newOrg();
  await org.api.orgs.updateOrganizationById(org.id, { inviteLinks: true });
  return org;
}

describe('invite links', () => {
  it('create, list, get, update, delete', async () => {
    const { id, api } = await orgWithLinks();
    const created = await expectConforms(
      'createOrganizationInvite',
      api.orgs.createOrganizationInvite(id, { role: official.MemberRole.Edit }),
      201,
    );
    const invite = created.data as { id: string; role: string | null; redundant: boolean };
    expect(invite).toMatchObject({ object: 'invite', role: 'edit', redundant: true });
    const guest = await expectConforms(
      'createOrganizationInvite',
      api.orgs.createOrganizationInvite(id, { role: null }),
      201,
    );

    const list = await expectConforms('listOrganizationInviteLinks', api.orgs.listOrganizationInviteLinks(id), 200);
    expect(list.data.count).toBe(2);
    expect(list.data.items.map((i) => i.id).sort()).toEqual([invite.id, guest.data.id].sort());
    const page = await expectConforms(
      'listOrganizationInviteLinks',
      api.orgs.listOrganizationInviteLinks(id, { limit: 1 }),
      200,
    );
    expect(page.data.items).toHaveLength(1);
    const rest = await expectConforms(
      'listOrganizationInviteLinks',
      api.orgs.listOrganizationInviteLinks(id, { limit: 1, page: page.data.next?.page }),
      200,
    );
    expect(rest.data.items).toHaveLength(1);
    expect(rest.data.next).toBeUndefined();

    const got = await expectConforms(
      'getOrganizationInviteLink',
      api.orgs.getOrganizationInviteLink(id, invite.id),
      200,
    );
    expect(got.data).toMatchObject({ id: invite.id, role: 'edit' });

    const updated = await expectConforms(
      'updateOrganizationInviteById',
      api.orgs.updateOrganizationInviteById(id, invite.id, { role: official.MemberRole.Read }),
      200,
    );
    expect(updated.data).toMatchObject({ id: invite.id, role: 'read' });

    await expectConforms('deleteOrganizationInviteById', api.orgs.deleteOrganizationInviteById(id, invite.id), 205);
    await expectConforms('deleteOrganizationInviteById', api.orgs.deleteOrganizationInviteById(id, invite.id), 204);
    await expectApiError('getOrganizationInviteLink', api.orgs.getOrganizationInviteLink(id, invite.id), 404);
  });

  it('refuses non-admins (403), outsiders and other organizations (404), bad bodies (400)', async () => {
    const { id, api } = await orgWithLinks();
    const other = await orgWithLinks();
    const created = await api.orgs.createOrganizationInvite(id, { role: official.MemberRole.Edit });
    const inviteId = created.data.id;
    const editor = await newMember(id, 'edit');
    const outsider = await newOutsider();

    await expectApiError('createOrganizationInvite', editor.api.orgs.createOrganizationInvite(id, { role: null }), 403);
    await expectApiError('listOrganizationInviteLinks', editor.api.orgs.listOrganizationInviteLinks(id), 403);
    await expectApiError('getOrganizationInviteLink', editor.api.orgs.getOrganizationInviteLink(id, inviteId), 403);
    await expectApiError(
      'updateOrganizationInviteById',
      editor.api.orgs.updateOrganizationInviteById(id, inviteId, { role: null }),
      403,
    );
    await expectApiError(
      'deleteOrganizationInviteById',
      editor.api.orgs.deleteOrganizationInviteById(id, inviteId),
      403,
    );

    await expectApiError('listOrganizationInviteLinks', outsider.api.orgs.listOrganizationInviteLinks(id), 404);
    await expectApiError('getOrganizationInviteLink', outsider.api.orgs.getOrganizationInviteLink(id, inviteId), 404);
    // The admin of another organization asks for this invite under their own organization: not there.
    await expectApiError(
      'getOrganizationInviteLink',
      other.api.orgs.getOrganizationInviteLink(other.id, inviteId),
      404,
    );
    await expectApiError(
      'updateOrganizationInviteById',
      other.api.orgs.updateOrganizationInviteById(other.id, inviteId, { role: null }),
      404,
    );
    await expectConforms(
      'deleteOrganizationInviteById',
      other.api.orgs.deleteOrganizationInviteById(other.id, inviteId),
      204,
    );
    await expectApiError(
      'joinOrganizationWithInvite',
      outsider.api.orgs.joinOrganizationWithInvite(other.id, inviteId),
      404,
    );

    await expectApiError(
      'createOrganizationInvite',
      api.orgs.createOrganizationInvite(id, { role: 'owner' as never }),
      400,
    );
    await expectApiError('createOrganizationInvite', api.orgs.createOrganizationInvite(id, {} as never), 400);
    // An invite to a space that is not there.
    await expectApiError(
      'createOrganizationInvite',
      api.orgs.createOrganizationInvite(id, { level: null, space: 'nope' }),
      404,
    );
    await expectApiError(
      'updateOrganizationInviteById',
      api.orgs.updateOrganizationInviteById(id, inviteId, { level: official.MemberRole.Read }),
      400,
    );
    // Still the invite it was.
    const got = await api.orgs.getOrganizationInviteLink(id, inviteId);
    expect(got.data).toMatchObject({ role: 'edit' });
  });

  it('joinOrganizationWithInvite adds the caller with the link role; a member changes nothing', async () => {
    const { id, api } = await orgWithLinks();
    const created = await api.orgs.createOrganizationInvite(id, { role: official.MemberRole.Comment });
    const outsider = await newOutsider();
    const before = await outsider.api.orgs.createOrganizationInvite(id, { role: null }).catch((e) => e);
    expect(before.code).toBe(404);
    const joined = await expectConforms(
      'joinOrganizationWithInvite',
      outsider.api.orgs.joinOrganizationWithInvite(id, created.data.id),
      200,
    );
    expect(joined.data).toEqual({});
    const member = await api.orgs.getMemberInOrganizationById(id, outsider.user.id);
    expect(member.data.role).toBe('comment');
    const invite = await outsider.api.orgs.getOrganizationInviteLink(id, created.data.id).catch((e) => e);
    expect(invite.code).toBe(403);
    await expectConforms('joinOrganizationWithInvite', api.orgs.joinOrganizationWithInvite(id, created.data.id), 200);
    const admin = await api.orgs.getMemberInOrganizationById(id, member.data.user.id);
    expect(admin.data.role).toBe('comment');
  });
});

describe('invite links to a space or a collection', () => {
  it('create, list, get, update: the target shown; join makes a guest with that level there', async () => {
    const { id, api } = await orgWithLinks();
    const space = (await api.orgs.createSpace(id, { title: 'Invited' })).data;
    const other = (await api.orgs.createSpace(id, { title: 'Not invited' })).data;
    const created = await expectConforms(
      'createOrganizationInvite',
      api.orgs.createOrganizationInvite(id, { level: official.MemberRole.Edit, space: space.id }),
      201,
    );
    const link = created.data as { id: string; level?: string | null; space?: { id: string }; role?: unknown };
    expect(link).toMatchObject({ object: 'invite', level: 'edit', redundant: true, space: { id: space.id } });
    expect(link.role).toBeUndefined();

    const got = await expectConforms('getOrganizationInviteLink', api.orgs.getOrganizationInviteLink(id, link.id), 200);
    expect(got.data).toMatchObject({ level: 'edit', space: { object: 'space', id: space.id, title: 'Invited' } });
    const list = await expectConforms('listOrganizationInviteLinks', api.orgs.listOrganizationInviteLinks(id), 200);
    // The official list answers InviteLinkToOrganization: the organization role such a link gives is guest.
    expect(list.data.items).toEqual([expect.objectContaining({ id: link.id, role: null, level: 'edit' })]);
    expect(list.data.items[0]).toMatchObject({ space: { id: space.id } });
    const updated = await expectConforms(
      'updateOrganizationInviteById',
      api.orgs.updateOrganizationInviteById(id, link.id, { level: official.MemberRole.Comment }),
      200,
    );
    expect(updated.data).toMatchObject({ level: 'comment', space: { id: space.id } });
    // Its form is {level}: {role} is refused.
    await expectApiError(
      'updateOrganizationInviteById',
      api.orgs.updateOrganizationInviteById(id, link.id, { role: official.MemberRole.Read }),
      400,
    );

    const outsider = await newOutsider();
    await expectApiError('getSpaceById', outsider.api.spaces.getSpaceById(space.id), 404);
    await expectConforms('joinOrganizationWithInvite', outsider.api.orgs.joinOrganizationWithInvite(id, link.id), 200);
    const member = await api.orgs.getMemberInOrganizationById(id, outsider.user.id);
    expect(member.data.role).toBeNull();
    const read = await outsider.api.spaces.getSpaceById(space.id);
    expect(read.data.permissions).toMatchObject({ comment: true, edit: false });
    await expectApiError('getSpaceById', outsider.api.spaces.getSpaceById(other.id), 404);
    const used = await api.orgs.getOrganizationInviteLink(id, link.id);
    expect(used.data).toMatchObject({ uses: 1 });
  });

  it('a collection link gives access to its spaces; a member keeps their role and gains a higher grant', async () => {
    const { id, api } = await orgWithLinks();
    const collection = (await api.orgs.createCollection(id, { title: 'Handbooks' })).data;
    const inside = (await api.orgs.createSpace(id, { title: 'Inside', parent: collection.id })).data;
    const outside = (await api.orgs.createSpace(id, { title: 'Outside' })).data;
    const created = await expectConforms(
      'createOrganizationInvite',
      api.orgs.createOrganizationInvite(id, { level: official.MemberRole.Edit, collection: collection.id }),
      201,
    );
    expect(created.data).toMatchObject({ level: 'edit', collection: { object: 'collection', id: collection.id } });

    const outsider = await newOutsider();
    await expectConforms(
      'joinOrganizationWithInvite',
      outsider.api.orgs.joinOrganizationWithInvite(id, created.data.id),
      200,
    );
    expect((await api.orgs.getMemberInOrganizationById(id, outsider.user.id)).data.role).toBeNull();
    const read = await outsider.api.spaces.getSpaceById(inside.id);
    expect(read.data.permissions).toMatchObject({ edit: true });
    await expectApiError('getSpaceById', outsider.api.spaces.getSpaceById(outside.id), 404);

    const reader = await newMember(id, 'read');
    await outsider.api.orgs.joinOrganizationWithInvite(id, created.data.id);
    await reader.api.orgs.joinOrganizationWithInvite(id, created.data.id);
    expect((await api.orgs.getMemberInOrganizationById(id, reader.user.id)).data.role).toBe('read');
    expect((await reader.api.spaces.getSpaceById(inside.id)).data.permissions).toMatchObject({ edit: true });
    expect((await reader.api.spaces.getSpaceById(outside.id)).data.permissions).toMatchObject({ edit: false });
    // The outsider's second join changed nothing: two uses (outsider, reader).
    expect((await api.orgs.getOrganizationInviteLink(id, created.data.id)).data).toMatchObject({ uses: 2 });
  });

  it("Bindery's OpenAPI document answers the three official variants", async () => {
    const doc = await (await newOutsider()).client.get('/v1/openapi.json');
    expect(doc.status).toBe(200);
    const answer = doc.body.paths['/v1/orgs/{organizationId}/link-invites'].post.responses['201'];
    const text = JSON.stringify(answer);
    for (const name of ['InviteLinkToOrganization', 'InviteLinkToSpace', 'InviteLinkToCollection']) {
      expect(text).toContain(name);
    }
  });

  it('refuses a target of another organization or none (404), a bad mix (400), non-admins (403)', async () => {
    const { id, api } = await orgWithLinks();
    const other = await orgWithLinks();
    const space = (await api.orgs.createSpace(id, { title: 'Mine' })).data;
    const theirs = (await other.api.orgs.createSpace(other.id, { title: 'Theirs' })).data;
    const theirCollection = (await other.api.orgs.createCollection(other.id, { title: 'Theirs' })).data;
    const create = (body: unknown) => api.orgs.createOrganizationInvite(id, body as never);
    await expectApiError('createOrganizationInvite', create({ level: 'read', space: theirs.id }), 404);
    await expectApiError('createOrganizationInvite', create({ level: 'read', collection: theirCollection.id }), 404);
    await expectApiError('createOrganizationInvite', create({ level: 'read', collection: 'nope' }), 404);
    await expectApiError('createOrganizationInvite', create({ space: space.id }), 400);
    await expectApiError('createOrganizationInvite', create({ role: 'read', space: space.id }), 400);
    await expectApiError('createOrganizationInvite', create({ level: 'owner', space: space.id }), 400);
    await expectApiError('createOrganizationInvite', create({ level: 'read', space: space.id, collection: 'x' }), 400);
    await expectApiError('createOrganizationInvite', create({ level: 'read', space: '' }), 400);
    const editor = await newMember(id, 'edit');
    await expectApiError(
      'createOrganizationInvite',
      editor.api.orgs.createOrganizationInvite(id, { level: official.MemberRole.Read, space: space.id }),
      403,
    );
    expect((await api.orgs.listOrganizationInviteLinks(id)).data.items).toHaveLength(0);
  });
});

describe('joinOrganization', () => {
  it('joins by e-mail domain with the default role; another domain is 400, an unknown organization 404', async () => {
    const { id, api } = await newOrg();
    await api.orgs.updateOrganizationById(id, {
      emailDomains: ['example.test'],
      defaultRole: official.MemberRole.Read,
    });
    const outsider = await newOutsider(); // user-…@example.test
    await expectConforms('joinOrganization', outsider.api.orgs.joinOrganization(id), 204);
    const member = await api.orgs.getMemberInOrganizationById(id, outsider.user.id);
    expect(member.data.role).toBe('read');
    await expectConforms('joinOrganization', outsider.api.orgs.joinOrganization(id), 204);

    const other = await newOrg();
    await other.api.orgs.updateOrganizationById(other.id, { emailDomains: ['elsewhere.test'] });
    await expectApiError('joinOrganization', outsider.api.orgs.joinOrganization(other.id), 400);
    await expectApiError('joinOrganization', outsider.api.orgs.joinOrganization('no-such-organization'), 404);
  });
});

describe('users', () => {
  it('getUserById: oneself and members of a shared organization; anyone else 404', async () => {
    const { id, api, admin } = await newOrg();
    const editor = await newMember(id, 'edit');
    const outsider = await newOutsider();
    const me = await expectConforms('getUserById', outsider.api.users.getUserById(outsider.user.id), 200);
    expect(me.data).toMatchObject({ object: 'user', id: outsider.user.id });
    const colleague = await expectConforms('getUserById', editor.api.users.getUserById(admin.user.id), 200);
    expect(colleague.data.displayName).toBe(admin.user.display_name);
    await expectApiError('getUserById', outsider.api.users.getUserById(admin.user.id), 404);
    await expectApiError('getUserById', api.users.getUserById('no-such-user'), 404);
  });

  it('updateUserById changes only one’s own profile', async () => {
    const { id, api, admin } = await newOrg();
    const editor = await newMember(id, 'edit');
    const outsider = await newOutsider();
    const res = await expectConforms(
      'updateUserById',
      editor.api.users.updateUserById(editor.user.id, {
        displayName: 'Ada Lovelace',
        photoURL: 'https://example.test/ada.png',
      }),
      200,
    );
    expect(res.data).toMatchObject({ displayName: 'Ada Lovelace', photoURL: 'https://example.test/ada.png' });
    const seen = await api.users.getUserById(editor.user.id);
    expect(seen.data.displayName).toBe('Ada Lovelace');
    const self = await editor.api.user.getAuthenticatedUser();
    expect(self.data.displayName).toBe('Ada Lovelace');

    await expectApiError('updateUserById', api.users.updateUserById(editor.user.id, { displayName: 'Not me' }), 403);
    await expectApiError('updateUserById', outsider.api.users.updateUserById(admin.user.id, { displayName: 'X' }), 404);
    await expectApiError('updateUserById', editor.api.users.updateUserById(editor.user.id, {}), 400);
    await expectApiError(
      'updateUserById',
      editor.api.users.updateUserById(editor.user.id, { displayName: 'x'.repeat(65) }),
      400,
    );
    await expectApiError(
      'updateUserById',
      editor.api.users.updateUserById(editor.user.id, { photoURL: 'javascript:alert(1)' }),
      400,
    );
    // 64 characters is the limit, and it is accepted.
    const long = await editor.api.users.updateUserById(editor.user.id, { displayName: 'y'.repeat(64) });
    expect(long.data.displayName).toHaveLength(64);
  });
});

it('covers every operation of the area', () => {
  expectOperationsCovered(OPERATIONS);
});
