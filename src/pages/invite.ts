/**
 * `GET /invite/{organizationId}/{secret}`: the page an invite link opens (the `urls.app` of an invite
 * link). A valid link sends someone not signed in to the sign-in page (`/auth/login`, which brings
 * them back here afterwards through `returnTo`); a link that is unknown, expired, used up or whose
 * organization turned invite links off answers a short 404 page.
 *
 * Signed-in visitors (a session cookie) are to get a "Join" form here; sessions do not exist yet on
 * these pages (see {@link signedInUser}), so until they do every visitor is sent to sign in, and
 * joining is done through the API (`POST /v1/orgs/{organizationId}/invites/{inviteId}`).
 */
import type { FastifyRequest } from 'fastify';
import { findInviteLink } from '../api/invites/repo.js';
import { inviteUnusable } from '../api/invites/service.js';
import { findOrganization } from '../api/organizations/repo.js';
import type { UserRow } from '../db/schema.js';
import type { App } from '../http/app.js';
import { basePath, htmlPage } from './html.js';

const STYLE = 'body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }';
const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/** The visitor signed in with a session cookie; null until the sign-in sessions exist. */
async function signedInUser(_app: App, _request: FastifyRequest): Promise<UserRow | null> {
  return null;
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

export function registerInvitePage(app: App): void {
  const base = basePath(app);
  app.get<{ Params: { organizationId: string; secret: string } }>(
    '/invite/:organizationId/:secret',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const { organizationId, secret } = request.params;
      reply.header('content-security-policy', CSP).header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer'); // the URL holds the secret
      const [invite, org] = await Promise.all([
        /^[A-Za-z0-9_-]{1,128}$/.test(secret) ? findInviteLink(app.db, organizationId, secret) : undefined,
        findOrganization(app.db, organizationId),
      ]);
      if (!invite || !org || org.invite_links !== 1 || inviteUnusable(invite)) {
        return reply.code(404).type('text/html; charset=utf-8').send(invalidPage());
      }
      const user = await signedInUser(app, request);
      if (!user) {
        const here = app.urls.app(`/invite/${organizationId}/${secret}`);
        return reply.redirect(`${base}/auth/login?returnTo=${encodeURIComponent(here)}`, 303);
      }
      return reply.code(404).type('text/html; charset=utf-8').send(invalidPage());
    },
  );
}
