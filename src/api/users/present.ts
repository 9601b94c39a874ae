import type { UserRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';

/** The User object. */
export function presentUser(user: Pick<UserRow, 'id' | 'email' | 'display_name' | 'photo_url'>, urls: Urls) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.display_name,
    email: user.email,
    ...(user.photo_url ? { photoURL: user.photo_url } : {}),
    urls: { location: urls.api(`/users/${user.id}`) },
  };
}
