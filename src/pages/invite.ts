/**
 * `GET /invite/{organizationId}/{secret}`: the page an invite link opens (the `urls.app` of an invite
 * link). Someone not signed in is sent to the sign-in page (`/auth/login`, which brings them back here
 * through `returnTo`; a person without a password sets one there with "Forgot password"). Someone
 * signed in (the session cookie) gets a "Join" form; posting it (`POST` of the same address, with the
 * session's CSRF token as a form field, from this origin) joins the organization through the same
 * service as `joinOrganizationWithInvite`, then goes to the organization in the app. A link that is
 * unknown, expired, used up or whose organization turned invite links off answers a short 404 page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findInviteLink } from '../api/invites/repo.js';
import { inviteUnusable, joinWithInvite } from '../api/invites/service.js';
import { findOrganization } from '../api/organizations/repo.js';
import { type VerifiedSession, verifySession } from '../core/sessions.js';
import type { App } from '../http/app.js';
import { sessionSecretOf } from '../http/auth.js';
import { basePath, htmlPage } from './html.js';

const STYLE = 'body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }';
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

type InviteRequest = FastifyRequest<{ Params: { organizationId: string; secret: string }; Body?: { csrf?: string } }>;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The visitor's session (the cookie), or null when none is valid. */
async function signedIn(app: App, request: FastifyRequest): Promise<VerifiedSession | null> {
  const secret = sessionSecretOf(request);
  if (!secret) return null;
  const check = await verifySession(app.db, secret, {
    idleMs: app.config.sessionIdleMs,
    maxMs: app.config.sessionMaxMs,
  });
  return check.ok ? check.session : null;
}

function invalidPage(): string {
  return htmlPage(
    'Invite link not valid',
    STYLE,
    `<main>
<h1>This invite link is not valid</h1>
<p>It may have expired, been used up or deleted. Ask an administrator of the organization for a new one.</p>
</main>`,
  );
}

function joinPage(organization: string, action: string, csrf: string, who: string): string {
  return htmlPage(
    `Join ${escapeHtml(organization)}`,
    STYLE,
    `<main>
<h1>Join ${escapeHtml(organization)}</h1>
<p>You are signed in as ${escapeHtml(who)}. This invite link makes you a member of ${escapeHtml(organization)}.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit">Join</button>
</form>
</main>`,
  );
}

export async function registerInvitePage(app: App): Promise<void> {
  const base = basePath(app);
  const publicOrigin = new URL(app.config.publicUrl).origin;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  /** The invite and its organization when the link can be used; otherwise the 404 page is sent. */
  async function usableInvite(request: InviteRequest, reply: FastifyReply) {
    const { organizationId, secret } = request.params;
    reply.header('content-security-policy', CSP).header('cache-control', 'no-store');
    // The URL holds the secret: no path is sent on, only the origin (`no-referrer` would make the
    // browser post the Join form with `Origin: null`, which the origin check refuses).
    reply.header('referrer-policy', 'strict-origin');
    const [invite, org] = await Promise.all([
      /^[A-Za-z0-9_-]{1,128}$/.test(secret) ? findInviteLink(app.db, organizationId, secret) : undefined,
      findOrganization(app.db, organizationId),
    ]);
    if (!invite || !org || org.invite_links !== 1 || inviteUnusable(invite)) {
      reply.code(404).type('text/html; charset=utf-8').send(invalidPage());
      return null;
    }
    return { org, path: `${base}/invite/${encodeURIComponent(organizationId)}/${encodeURIComponent(secret)}` };
  }

  const options = { config: { public: true }, schema: { hide: true } } as const;
  app.get('/invite/:organizationId/:secret', options, async (request: InviteRequest, reply) => {
    const found = await usableInvite(request, reply);
    if (!found) return reply;
    const session = await signedIn(app, request);
    if (!session) return reply.redirect(`${base}/auth/login?returnTo=${encodeURIComponent(found.path)}`, 303);
    const who = session.user.email ?? session.user.display_name;
    return reply.type('text/html; charset=utf-8').send(joinPage(found.org.title, found.path, session.csrfToken, who));
  });

  app.post('/invite/:organizationId/:secret', options, async (request: InviteRequest, reply) => {
    const found = await usableInvite(request, reply);
    if (!found) return reply;
    const origin = request.headers.origin;
    const session = await signedIn(app, request);
    if (!session) return reply.redirect(`${base}/auth/login?returnTo=${encodeURIComponent(found.path)}`, 303);
    if ((origin !== undefined && origin !== publicOrigin) || request.body?.csrf !== session.csrfToken) {
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          htmlPage(
            'Not joined',
            STYLE,
            '<main><h1>Not joined</h1><p>This form expired. Open the invite link again.</p></main>',
          ),
        );
    }
    const { organizationId, secret } = request.params;
    await joinWithInvite(
      { db: app.db, urls: app.urls, actor: { type: 'user', user: session.user, tokenId: null, source: 'api' } },
      organizationId,
      secret,
    );
    return reply.redirect(new URL(app.urls.app(`/o/${organizationId}`)).pathname, 303);
  });
}
