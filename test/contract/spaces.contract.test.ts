/**
 * Contract test of spaces and collections: every operation is driven through the official
 * `@gitbook/api` client against a listening server, every request body is first checked against the
 * official request schema, and every response body is validated against the schema GitBook's own
 * OpenAPI document gives that operation. Their permissions and the member's spaces are in
 * spaces-permissions.contract.test.ts, the errors and official edge cases of all these areas in
 * spaces-edge-cases.contract.test.ts; the shared set-up is in test/helpers/spaces-contract.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  collection,
  PERMISSION_OPERATIONS,
  SPACE_AND_COLLECTION_OPERATIONS,
  SPACE_OPERATIONS,
  space,
} from '../helpers/spaces-contract.js';
import { official } from './official.js';
import { newMember, newOrg, unique, useContractServer } from './server.js';
import { allowed, expectApiError, expectConforms, expectOperationsCovered, findOperation } from './validate.js';

useContractServer();

describe('the official document', () => {
  it('has every operation of these areas', () => {
    for (const id of SPACE_OPERATIONS) expect(findOperation(id).operationId).toBe(id);
  });
});

describe('spaces', () => {
  it('createSpace: minimal, with every official field, and inside a collection', async () => {
    const org = await newOrg();
    const op = 'createSpace';
    const minimal = await expectConforms(op, org.api.orgs.createSpace(org.id, allowed(op, {})), 201);
    expect(minimal.data).toMatchObject({ object: 'space', organization: org.id, defaultLevel: 'inherit' });
    expect((minimal as unknown as Response).headers.get('location')).toBe(minimal.data.urls.location);

    const full = await expectConforms(
      op,
      org.api.orgs.createSpace(
        org.id,
        allowed(op, {
          title: 'Handbook',
          emoji: '1f4d8',
          language: official.TranslationLanguage.Fr,
          editMode: official.SpaceEditMode.Locked,
          empty: true as const,
        }),
      ),
      201,
    );
    expect(full.data).toMatchObject({ title: 'Handbook', emoji: '1f4d8', language: 'fr', editMode: 'locked' });
    expect(full.data.permissions.admin).toBe(true);

    const parent = await collection(org);
    const nested = await expectConforms(
      op,
      org.api.orgs.createSpace(org.id, allowed(op, { title: 'Nested', parent: parent.id })),
      201,
    );
    expect(nested.data.parent).toBe(parent.id);
  });

  it('listSpacesInOrganizationById, paged, as an admin and as a guest', async () => {
    const org = await newOrg();
    const created = [await space(org, { title: 'A' }), await space(org, { title: 'B' }), await space(org)];
    const op = 'listSpacesInOrganizationById';
    const all = await expectConforms(op, org.api.orgs.listSpacesInOrganizationById(org.id), 200);
    expect(all.data.items.map((s) => s.id)).toEqual(created.map((s) => s.id));
    expect(all.data.count).toBe(3);
    const first = await expectConforms(op, org.api.orgs.listSpacesInOrganizationById(org.id, { limit: 2 }), 200);
    expect(first.data.items).toHaveLength(2);
    expect(first.data.next?.page).toBeTruthy();
    const rest = await expectConforms(
      op,
      org.api.orgs.listSpacesInOrganizationById(org.id, { limit: 2, page: first.data.next?.page }),
      200,
    );
    expect(rest.data.items.map((s) => s.id)).toEqual([created[2]?.id]);
    expect(rest.data.next).toBeUndefined();

    // A guest sees only the space granted to them.
    const guest = await newMember(org.id, null);
    await org.api.spaces.inviteToSpace(created[1]?.id as string, {
      role: official.MemberRole.Read,
      users: [guest.user.id],
    });
    const asGuest = await expectConforms(op, guest.api.orgs.listSpacesInOrganizationById(org.id), 200);
    expect(asGuest.data.items.map((s) => s.id)).toEqual([created[1]?.id]);
    expect(asGuest.data.items[0]?.permissions).toMatchObject({ view: true, edit: false, admin: false });
  });

  it('getSpaceById, as an admin and as a reader', async () => {
    const org = await newOrg();
    const s = await space(org, { title: 'Visible' });
    const op = 'getSpaceById';
    const asAdmin = await expectConforms(op, org.api.spaces.getSpaceById(s.id), 200);
    expect(asAdmin.data).toMatchObject({ id: s.id, title: 'Visible', visibility: 'private' });
    expect(asAdmin.data.permissions.admin).toBe(true);
    const reader = await newMember(org.id, official.MemberRole.Read);
    const asReader = await expectConforms(op, reader.api.spaces.getSpaceById(s.id), 200);
    expect(asReader.data.permissions).toMatchObject({ view: true, admin: false, edit: false, comment: false });
  });

  it('updateSpaceById: title, emoji, editMode, defaultLevel, language, then clearing the emoji', async () => {
    const org = await newOrg();
    const s = await space(org);
    const op = 'updateSpaceById';
    const set = await expectConforms(
      op,
      org.api.spaces.updateSpaceById(
        s.id,
        allowed(op, {
          title: 'Renamed',
          emoji: '1f389',
          editMode: official.SpaceEditMode.Locked,
          defaultLevel: official.MemberRole.Comment,
          language: official.TranslationLanguage.De,
        }),
      ),
      200,
    );
    expect(set.data).toMatchObject({
      title: 'Renamed',
      emoji: '1f389',
      editMode: 'locked',
      defaultLevel: 'comment',
      language: 'de',
    });
    const cleared = await expectConforms(
      op,
      org.api.spaces.updateSpaceById(s.id, allowed(op, { emoji: null, defaultLevel: null })),
      200,
    );
    expect(cleared.data.emoji).toBe('');
    expect(cleared.data.defaultLevel).toBeNull();
    const inherit = await expectConforms(
      op,
      org.api.spaces.updateSpaceById(s.id, allowed(op, { defaultLevel: 'inherit' as const })),
      200,
    );
    expect(inherit.data.defaultLevel).toBe('inherit');
  });

  it('deleteSpaceById and restoreSpace', async () => {
    const org = await newOrg();
    const s = await space(org);
    const deleted = await expectConforms('deleteSpaceById', org.api.spaces.deleteSpaceById(s.id));
    expect([204, 205]).toContain(deleted.status);
    const listed = await expectConforms(
      'listSpacesInOrganizationById',
      org.api.orgs.listSpacesInOrganizationById(org.id),
      200,
    );
    expect(listed.data.items).toHaveLength(0);
    const asDeleted = await expectConforms('getSpaceById', org.api.spaces.getSpaceById(s.id), 200);
    expect(asDeleted.data.deletedAt).toEqual(expect.any(String));
    const restored = await expectConforms('restoreSpace', org.api.spaces.restoreSpace(s.id), 200);
    expect(restored.data.id).toBe(s.id);
    expect(restored.data.deletedAt).toBeUndefined();
    // Restoring a live space is harmless.
    await expectConforms('restoreSpace', org.api.spaces.restoreSpace(s.id), 200);
  });

  it('moveSpace: into a collection, among siblings, and back to the top level', async () => {
    const org = await newOrg();
    const target = await collection(org);
    const a = await space(org, { title: 'a', parent: target.id });
    const b = await space(org, { title: 'b', parent: target.id });
    const c = await space(org, { title: 'c' });
    const op = 'moveSpace';
    const order = async () =>
      (await org.api.collections.listSpacesInCollectionById(target.id)).data.items.map((s) => s.title);

    const into = await expectConforms(op, org.api.spaces.moveSpace(c.id, allowed(op, { parent: target.id })), 200);
    expect(into.data.parent).toBe(target.id);
    expect(await order()).toEqual(['a', 'b', 'c']);
    await expectConforms(
      op,
      org.api.spaces.moveSpace(c.id, allowed(op, { position: { before: { type: 'space' as const, space: a.id } } })),
      200,
    );
    expect(await order()).toEqual(['c', 'a', 'b']);
    await expectConforms(
      op,
      org.api.spaces.moveSpace(c.id, allowed(op, { position: { after: { type: 'space' as const, space: b.id } } })),
      200,
    );
    expect(await order()).toEqual(['a', 'b', 'c']);
    const out = await expectConforms(op, org.api.spaces.moveSpace(a.id, allowed(op, { parent: null })), 200);
    expect(out.data.parent).toBeUndefined();
    expect(await order()).toEqual(['b', 'c']);
  });
});

describe('collections', () => {
  it('createCollection, at the top level and nested', async () => {
    const org = await newOrg();
    const op = 'createCollection';
    const top = await expectConforms(op, org.api.orgs.createCollection(org.id, allowed(op, { title: 'Top' })), 201);
    expect(top.data).toMatchObject({ object: 'collection', title: 'Top', organization: org.id });
    expect(top.data.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    expect((top as unknown as Response).headers.get('location')).toBe(top.data.urls.location);
    const nested = await expectConforms(
      op,
      org.api.orgs.createCollection(org.id, allowed(op, { title: 'Nested', parent: top.data.id })),
      201,
    );
    expect(nested.data.parent).toBe(top.data.id);
    await expectConforms(op, org.api.orgs.createCollection(org.id, allowed(op, {})), 201);
  });

  it('listCollectionsInOrganizationById, nested or not, paged', async () => {
    const org = await newOrg();
    const top = await collection(org, { title: 'Top' });
    const child = await collection(org, { title: 'Child', parent: top.id });
    const other = await collection(org, { title: 'Other' });
    const op = 'listCollectionsInOrganizationById';
    const all = await expectConforms(op, org.api.orgs.listCollectionsInOrganizationById(org.id), 200);
    expect(new Set(all.data.items.map((c) => c.id))).toEqual(new Set([top.id, child.id, other.id]));
    const flat = await expectConforms(
      op,
      org.api.orgs.listCollectionsInOrganizationById(org.id, { nested: false }),
      200,
    );
    expect(new Set(flat.data.items.map((c) => c.id))).toEqual(new Set([top.id, other.id]));
    const first = await expectConforms(op, org.api.orgs.listCollectionsInOrganizationById(org.id, { limit: 2 }), 200);
    expect(first.data.items).toHaveLength(2);
    const rest = await expectConforms(
      op,
      org.api.orgs.listCollectionsInOrganizationById(org.id, { limit: 2, page: first.data.next?.page }),
      200,
    );
    expect([...first.data.items, ...rest.data.items].map((c) => c.id).sort()).toEqual(
      [top.id, child.id, other.id].sort(),
    );
  });

  it('getCollectionById and updateCollectionById', async () => {
    const org = await newOrg();
    const c = await collection(org, { title: 'Before' });
    const got = await expectConforms('getCollectionById', org.api.collections.getCollectionById(c.id), 200);
    expect(got.data).toMatchObject({ id: c.id, title: 'Before', defaultLevel: 'inherit' });
    const op = 'updateCollectionById';
    const updated = await expectConforms(
      op,
      org.api.collections.updateCollectionById(
        c.id,
        allowed(op, { title: 'After', description: 'What it holds', defaultLevel: official.MemberRole.Edit }),
      ),
      200,
    );
    expect(updated.data).toMatchObject({ title: 'After', description: 'What it holds', defaultLevel: 'edit' });
    const none = await expectConforms(
      op,
      org.api.collections.updateCollectionById(c.id, allowed(op, { defaultLevel: null })),
      200,
    );
    expect(none.data.defaultLevel).toBeNull();
    const reader = await newMember(org.id, official.MemberRole.Read);
    await org.api.collections.updateCollectionById(c.id, { defaultLevel: 'inherit' });
    const asReader = await expectConforms('getCollectionById', reader.api.collections.getCollectionById(c.id), 200);
    expect(asReader.data.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
  });

  it('listSpacesInCollectionById, paged', async () => {
    const org = await newOrg();
    const c = await collection(org);
    const inside = [await space(org, { parent: c.id }), await space(org, { parent: c.id })];
    await space(org);
    const op = 'listSpacesInCollectionById';
    const all = await expectConforms(op, org.api.collections.listSpacesInCollectionById(c.id), 200);
    expect(all.data.items.map((s) => s.id)).toEqual(inside.map((s) => s.id));
    const first = await expectConforms(op, org.api.collections.listSpacesInCollectionById(c.id, { limit: 1 }), 200);
    expect(first.data.next?.page).toBeTruthy();
    const second = await expectConforms(
      op,
      org.api.collections.listSpacesInCollectionById(c.id, { limit: 1, page: first.data.next?.page }),
      200,
    );
    expect(second.data.items.map((s) => s.id)).toEqual([inside[1]?.id]);
  });

  it('moveCollection: under another collection, among siblings, and back to the top level', async () => {
    const org = await newOrg();
    const a = await collection(org, { title: 'a' });
    const b = await collection(org, { title: 'b' });
    const moving = await collection(org, { title: 'moving' });
    const op = 'moveCollection';
    const under = await expectConforms(
      op,
      org.api.collections.moveCollection(moving.id, allowed(op, { parent: a.id })),
      200,
    );
    expect(under.data.parent).toBe(a.id);
    const top = await expectConforms(
      op,
      org.api.collections.moveCollection(
        moving.id,
        allowed(op, { parent: null, position: { before: { type: 'collection' as const, collection: b.id } } }),
      ),
      200,
    );
    expect(top.data.parent).toBeUndefined();
    const flat = await org.api.orgs.listCollectionsInOrganizationById(org.id, { nested: false });
    expect(flat.data.items.map((c) => c.title)).toEqual(['a', 'moving', 'b']);
    // A collection cannot move under itself (documented 400).
    await expectApiError(op, org.api.collections.moveCollection(a.id, allowed(op, { parent: a.id })), 400);
  });

  it('transferCollection to another organization the caller administers', async () => {
    const org = await newOrg();
    const c = await collection(org);
    const inside = await space(org, { parent: c.id });
    const target = await org.api.orgs.createOrganization({ title: `Target ${unique()}` });
    const op = 'transferCollection';
    const moved = await expectConforms(
      op,
      org.api.collections.transferCollection(c.id, allowed(op, { organization: target.data.id })),
      200,
    );
    expect(moved.data.organization).toBe(target.data.id);
    const spaceNow = await expectConforms('getSpaceById', org.api.spaces.getSpaceById(inside.id), 200);
    expect(spaceNow.data.organization).toBe(target.data.id);
    // Into an organization the caller is not a member of: 404 (documented).
    const elsewhere = await newOrg();
    await expectApiError(
      op,
      org.api.collections.transferCollection(c.id, allowed(op, { organization: elsewhere.id })),
      404,
    );
  });

  it('deleteCollectionById', async () => {
    const org = await newOrg();
    const c = await collection(org);
    const inside = await space(org, { parent: c.id });
    const res = await expectConforms('deleteCollectionById', org.api.collections.deleteCollectionById(c.id));
    expect([204, 205]).toContain(res.status);
    await expectApiError('getCollectionById', org.api.collections.getCollectionById(c.id), 404);
    const listed = await expectConforms(
      'listSpacesInOrganizationById',
      org.api.orgs.listSpacesInOrganizationById(org.id),
      200,
    );
    expect(listed.data.items.map((s) => s.id)).not.toContain(inside.id);
  });
});

/**
 * The operations of these areas are divided between two files, each checking at its end that it
 * validated its part: this file SPACE_AND_COLLECTION_OPERATIONS,
 * spaces-permissions.contract.test.ts PERMISSION_OPERATIONS. Together they are every operation of
 * these areas by construction: test/helpers/spaces-contract.ts defines SPACE_OPERATIONS (the list
 * this file checked before it was split) as the two parts joined. The first assertion below checks
 * that the parts together are exactly the distinct operations of SPACE_OPERATIONS, none in both parts.
 */
describe('coverage', () => {
  it('validated every operation of these areas', () => {
    expect([...SPACE_AND_COLLECTION_OPERATIONS, ...PERMISSION_OPERATIONS].sort()).toEqual(
      [...new Set(SPACE_OPERATIONS)].sort(),
    );
    expectOperationsCovered(SPACE_AND_COLLECTION_OPERATIONS);
  });
});
