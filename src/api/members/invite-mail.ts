/**
 * The mail a person invited by e-mail (`inviteUsersToOrganization`) receives when `SMTP_URL` is set:
 * who invited them to which organization, and the link that leads through sign-in (`/auth/login`,
 * where someone without a password yet sets one through the password-reset flow) to the
 * organization. Sent after the members are committed; a mail that fails is logged, and the
 * invitation stands (the person is a member either way).
 */
import type { App } from '../../http/app.js';
import { canSendMail, sendMail } from '../../mail/send.js';
import { findOrganization } from '../organizations/repo.js';
import { findUsersByIds } from '../users/repo.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where the mail's link leads: sign-in, then the organization. */
export function invitationLink(app: App, organizationId: string): string {
  // returnTo is a path of this server (the sign-in page refuses anything else), under PUBLIC_URL's path.
  const organizationPath = new URL(app.urls.app(`/o/${organizationId}`)).pathname;
  return app.urls.app(`/auth/login?returnTo=${encodeURIComponent(organizationPath)}`);
}

export async function mailInvitations(
  app: App,
  organizationId: string,
  inviterName: string,
  userIds: string[],
): Promise<void> {
  if (!canSendMail(app.config) || userIds.length === 0) return;
  const org = await findOrganization(app.db, organizationId);
  if (!org) return;
  const users = await findUsersByIds(app.db, userIds);
  const link = invitationLink(app, organizationId);
  const subject = `${inviterName} invited you to ${org.title} on Bindery`;
  const text = `${inviterName} invited you to join the organization "${org.title}".\n\nOpen this link to sign in and join it:\n${link}\n\nIf you have no password yet, choose "Forgot password" on the sign-in page to set one.\n`;
  const html = `<p>${escapeHtml(inviterName)} invited you to join the organization “${escapeHtml(org.title)}”.</p>
<p><a href="${escapeHtml(link)}">Sign in and join it</a></p>
<p>If you have no password yet, choose “Forgot password” on the sign-in page to set one.</p>`;
  for (const user of users.values()) {
    try {
      await sendMail(app.config, { to: user.email, subject, text, html });
    } catch (error) {
      app.log.warn({ err: error, organizationId, userId: user.id }, 'the invitation mail could not be sent');
    }
  }
}
