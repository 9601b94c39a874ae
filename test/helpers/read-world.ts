/**
 * One organization holding at least one of everything a GET of the API addresses, built through
 * HTTP on top of the published site of ./published.ts, for sweeps that read every operation: the
 * admin's client, and the value of every path (and required query) parameter by name.
 */
import { expect } from 'vitest';
import { countJobsByState } from '../../src/jobs/queue.js';
import type { Client, Harness, Response } from './app.js';
import { PNG } from './fixtures.js';
import type { GitServer } from './git-server.js';
import { edit, publishedWorld } from './published.js';
import type { Receiver } from './receiver.js';

export interface ReadWorld {
  /** The organization admin's client: every read is made as them. */
  client: Client;
  /** Path and required query parameters by name (`organizationId`, `spaceId`, …, `source`). */
  params: Record<string, string>;
  /**
   * Parameters whose value differs under `/change-requests/{changeRequestId}/`: a comment of the
   * change request is not one of the space, and the other way round.
   */
  inChangeRequest: Record<string, string>;
}

const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: { '/pets': { get: { responses: { '200': { description: 'The pets' } } } } },
};

function ok(res: Response, status = 201) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** Resolves once no job is queued or running (`ms` at most); jobs make changes of their own. */
export async function jobsIdle(h: Harness, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const busy = (await countJobsByState(h.db)).filter((s) => s.state === 'queued' || s.state === 'running');
    if (busy.every((s) => s.count === 0)) return;
    if (Date.now() > deadline) throw new Error(`jobs still busy: ${JSON.stringify(busy)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Builds the world. The harness needs a job worker (OpenAPI processing, webhook deliveries, the Git
 * export), private fetches (the receiver and the Git server are on loopback) and the partner key
 * the caller sends for `/v1/ads/*`. Returns once every job the world enqueued has run.
 */
export async function readWorld(h: Harness, git: GitServer, receiver: Receiver): Promise<ReadWorld> {
  const w = await publishedWorld(h);
  const c = w.admin.client;
  const o = `/v1/orgs/${w.orgId}`;
  const sp = `/v1/spaces/${w.guide}`;

  // People: an editor (who writes the change request the admin reviews), in a team.
  const editor = await h.member(w.orgId, 'edit');
  const team = ok(await c.put(`${o}/teams`, { title: 'Writers', members: [editor.user.id] }));
  const collection = ok(await c.post(`${o}/collections`, { title: 'Handbook' }));
  ok(await c.post(`${o}/spaces`, { title: 'Filed', parent: collection.id }));
  ok(await c.post(`${sp}/permissions`, { role: 'edit', teams: [team.id] }), 204);
  ok(await c.post(`/v1/collections/${collection.id}/permissions`, { role: 'read', users: [editor.user.id] }), 204);
  ok(await c.post(`/v1/collections/${collection.id}/permissions`, { role: 'edit', teams: [team.id] }), 204);

  // Content: a reusable content merged into the guide, whose merge is the revision read.
  await edit(c, w.guide, [
    () => [{ operation: 'insert_reusable_content', title: 'Snippet', document: { markdown: 'Shared text.' } }],
  ]);
  const live = ok(await c.get(`${sp}/content`), 200);
  const file = live.files[0].id as string;
  const reusable = live.reusableContents[0].id as string;

  // An open change request by the editor: an edit, reviewers requested, a review, comments.
  const cr = ok(await editor.client.post(`${sp}/change-requests`, { subject: 'Draft' }));
  const crApi = `${sp}/change-requests/${cr.id}`;
  ok(
    await editor.client.post(`${crApi}/content`, {
      changes: [{ operation: 'insert_page', title: 'Draft page', document: { markdown: 'Soon.' } }],
    }),
    200,
  );
  ok(await editor.client.post(`${crApi}/requested-reviewers`, { users: [w.admin.user.id] }), 200);
  const review = ok(await c.post(`${crApi}/reviews`, { status: 'approved' }));
  const text = (markdown: string) => ({ body: { markdown } });
  const crComment = ok(await c.post(`${crApi}/comments`, { ...text('On the draft'), page: w.pages.start }));
  const crReply = ok(await editor.client.post(`${crApi}/comments/${crComment.id}/replies`, text('Noted')));
  const comment = ok(await c.post(`${sp}/comments`, text('On the space')));
  const reply = ok(await editor.client.post(`${sp}/comments/${comment.id}/replies`, text('Agreed')));

  // The site's parts beyond publishedWorld's sections.
  const siteSpace = ok(await c.get(`${w.api}/site-spaces`), 200).items[0].id as string;
  ok(await c.post(`${w.api}/section-groups`, { title: 'More', sections: [w.sections.api] }));
  ok(
    await c.post(`${w.api}/redirects`, { source: '/old', destination: { kind: 'site-space', siteSpaceId: siteSpace } }),
  );
  ok(await c.post(`${w.api}/external-links`, { title: 'Status', url: 'https://status.example.test/' }));
  const adaptive = { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } } };
  ok(await c.put(`${w.api}/adaptive-schema`, { jsonSchema: { ...adaptive, additionalProperties: false } }), 200);
  ok(await c.post(`${w.api}/share-links`, { name: 'Partners' }));
  ok(await c.put(`${w.api}/customization`, { styling: { theme: 'muted' }, title: 'Custom' }), 200);
  ok(await c.patch(`${w.api}/site-spaces/${siteSpace}/customization`, { title: 'Guide' }), 200);
  ok(await c.post(`${w.api}/ads`, { status: 'in-review', topic: 'webdev' }), 204);
  // Where the site lives: a (pending) custom hostname, and the organization's address.
  const reads = `reads-${w.orgId.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 30);
  ok(await c.put(`/v1/custom-hostnames/docs.${reads}.test`, { site: w.siteId }), 201);
  ok(await c.patch(o, { hostname: reads }), 200);
  // No GET reads insights (their aggregation is a POST); tracked so that one added later finds some.
  const session = { sessionId: 's1', visitorId: 'v1', cookies: {}, userAgent: 'test', language: 'en', referrer: null };
  const location = { url: 'https://docs.example.test/', siteSection: null, siteSpace: null, siteShareKey: null };
  const view = { type: 'page_view', session, location: { ...location, space: null, revision: null, page: null } };
  ok(await c.post(`${w.api}/insights/events`, { events: [view] }), 204);

  // Organization-wide: translations, an OpenAPI specification, an integration installed on the space.
  const translation = ok(await c.post(`${o}/translations`, { title: 'French', languages: ['fr'] }));
  ok(await c.post(`${o}/openapi`, { slug: 'pets', source: { text: JSON.stringify(PETSTORE) } }));
  const integration = `reads-${w.orgId.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 40);
  const icon = PNG.toString('base64');
  ok(
    await c.post(`/v1/integrations/${integration}`, {
      title: 'Reads',
      description: 'Swept',
      scopes: ['space:content:read'],
      script: 'export default {}',
      organization: w.orgId,
      icon,
      previewImages: [icon],
      blocks: [{ id: 'embed', title: 'Embed', markdown: { codeblock: 'embed', body: 'url' } }],
    }),
  );
  const installation = ok(await c.post(`/v1/integrations/${integration}/installations`, { organization: w.orgId }));
  ok(await c.post(`/v1/integrations/${integration}/installations/${installation.id}/spaces`, { space: w.guide }));

  // An invite link (the organization's invite links turned on first).
  ok(await c.patch(o, { inviteLinks: true }), 200);
  const invite = ok(await c.post(`${o}/link-invites`, { role: 'read' }));

  // Jobs: a Git export (so the space has a Git state), a webhook hearing everything from now on, pinged.
  git.createRepo('reads-out');
  const gitUrl = git.url('reads-out');
  ok(await c.post(`${sp}/git/export`, { url: gitUrl, ref: 'refs/heads/main', commitMessage: 'Export' }), 204);
  const webhook = ok(await c.post(`${o}/webhooks`, { url: receiver.url, events: ['*'] }));
  const samlProvider = ok(await c.post(`${o}/saml`, { label: 'Corporate IdP' }));
  const delivery = ok(await c.post(`${o}/webhooks/${webhook.id}/ping`), 202);
  await jobsIdle(h);
  const spec = ok(await c.get(`${o}/openapi/pets`), 200);
  expect(spec.processingState).toBe('complete');
  const version = ok(await c.get(`${o}/openapi/pets/versions`), 200).items[0].id as string;
  const auditEvent = ok(await c.get(`${o}/audit-events`), 200).items[0].id as string;

  return {
    client: c,
    params: {
      organizationId: w.orgId,
      userId: editor.user.id,
      teamId: team.id,
      collectionId: collection.id,
      spaceId: w.guide,
      changeRequestId: cr.id,
      revisionId: live.id,
      pageId: w.pages.start as string,
      pagePath: 'getting-started',
      fileId: file,
      reusableContentId: reusable,
      commentId: comment.id,
      commentReplyId: reply.id,
      reviewId: review.id,
      siteId: w.siteId,
      siteSpaceId: siteSpace,
      integrationName: integration,
      index: '0',
      specSlug: 'pets',
      versionId: version,
      translationSettingsId: translation.id,
      webhookId: webhook.id,
      samlProviderId: samlProvider.id,
      inviteId: invite.id,
      deliveryId: delivery.id,
      auditEventId: auditEvent,
      hostname: `docs.${reads}.test`,
      subdomain: reads,
      // Required query parameters.
      source: '/old',
      query: 'How do I install the CLI?',
      // A URL the API handed out (the site's), for the URL lookups and embeds (its host does not resolve: a plain card).
      url: w.siteUrl,
      documentId: (await c.get(`/v1/spaces/${w.guide}/content/page/${w.pages.start}`)).body.documentId,
    },
    inChangeRequest: { commentId: crComment.id, commentReplyId: crReply.id },
  };
}
