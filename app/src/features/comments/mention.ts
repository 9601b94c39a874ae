/**
 * Mentions in a comment being written. The API turns `@` followed by a member's user id or e-mail
 * address into the official mention inline (see the comment body's Markdown), so the app inserts
 * `@<handle> ` where the writer is: replacing the `@` just typed, or at the caret.
 */

/** What the API reads after `@` as a member (its pattern): the e-mail address when it fits, else the id. */
const EMAIL_HANDLE = /^[A-Za-z0-9_-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

export function mentionHandle(user: { id: string; email?: string }): string {
  return user.email && EMAIL_HANDLE.test(user.email) ? user.email : user.id;
}

/** The `@` just typed before the caret (at the start, or after a space or an opening bracket), if any. */
export function typedMention(text: string, caret: number): number | null {
  const at = caret - 1;
  if (at < 0 || text[at] !== '@') return null;
  const before = at === 0 ? ' ' : (text[at - 1] as string);
  return /[\s([{]/.test(before) ? at : null;
}

/**
 * The text with a mention of `handle` put in: over the `@` at `replaceAt` when the writer typed
 * one, otherwise at the caret (after a space when the caret follows a word). Returns the new caret.
 */
export function insertMention(
  text: string,
  caret: number,
  handle: string,
  replaceAt: number | null,
): { text: string; caret: number } {
  const start = replaceAt ?? caret;
  const end = replaceAt === null ? caret : replaceAt + 1;
  const before = text.slice(0, start);
  const needsSpace = before.length > 0 && !/[\s([{]$/.test(before);
  const mention = `${needsSpace ? ' ' : ''}@${handle} `;
  const after = text.slice(end).replace(/^ /, '');
  return { text: `${before}${mention}${after}`, caret: before.length + mention.length };
}

/** The users a comment's JSON document mentions (official `mention` inlines of kind `user`), once each. */
export function mentionedUserIds(document: unknown): string[] {
  const ids = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { object?: string; type?: string; data?: { ref?: { kind?: string; user?: string } } };
    if (n.object === 'inline' && n.type === 'mention' && n.data?.ref?.kind === 'user' && n.data.ref.user) {
      ids.add(n.data.ref.user);
    }
    for (const child of (node as { nodes?: unknown[] }).nodes ?? []) walk(child);
  };
  walk(document);
  return [...ids];
}
