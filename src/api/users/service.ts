/** Changes of a user's own profile: a person changes only their own (anyone else's: 403, or 404 unseen). */
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import { userChanged } from '../../core/tokens.js';
import type { UserRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { safeUrl } from '../../lib/safe-url.js';
import { presentUser } from './present.js';
import * as repo from './repo.js';

export async function updateUser(
  ctx: ServiceContext,
  userId: string,
  body: { displayName?: string; photoURL?: string },
): Promise<UserRow> {
  const me = actingUser(ctx);
  if (userId !== me.id) {
    if (await repo.canSeeUser(ctx.db, me.id, userId)) throw forbidden('you can change only your own profile');
    throw notFound(`user ${userId} not found`);
  }
  if (body.displayName !== undefined && body.displayName.trim() === '') {
    throw badRequest('body/displayName must not be blank');
  }
  if (body.photoURL !== undefined && safeUrl(body.photoURL, 'image') === null) {
    throw badRequest('body/photoURL must be an http(s) URL');
  }
  const updated = await inTransaction(
    ctx.db,
    async (trx) => {
      const before = await repo.findUserById(trx, userId);
      if (!before) throw notFound(`user ${userId} not found`);
      const changes: Parameters<typeof repo.updateUserProfile>[2] = {};
      if (body.displayName !== undefined && body.displayName !== before.display_name) {
        changes.display_name = body.displayName;
      }
      if (body.photoURL !== undefined && body.photoURL !== before.photo_url) changes.photo_url = body.photoURL;
      if (Object.keys(changes).length === 0) return before;
      await repo.updateUserProfile(trx, userId, changes);
      const after = { ...before, ...changes };
      const object = presentUser(after, ctx.urls);
      const previous = previousValues(presentUser(before, ctx.urls), object);
      // Each organization of the user records it in its audit log.
      for (const organizationId of await repo.organizationsOfUser(trx, userId)) {
        await recordEvent(trx, ctx, {
          type: 'user.updated',
          organizationId,
          target: { object: 'user', id: userId, label: after.display_name },
          data: { object, previous },
        });
      }
      return after;
    },
    { withoutEvent: 'updateUser' },
  );
  userChanged(userId);
  return updated;
}
