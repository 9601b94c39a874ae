/**
 * The kinds of event the service layer records, with the label the audit log shows for each
 * (`listOrganizationAuditEventActions`). A webhook subscribes to types, to a family (`space.*`) or
 * to everything (`*`).
 */
export const EVENT_TYPES = {
  'organization.created': 'Organization created',
  'organization.updated': 'Organization updated',
  'member.added': 'Member added',
  'member.updated': 'Member updated',
  'member.removed': 'Member removed',
  'invite.created': 'Invite link created',
  'invite.updated': 'Invite link updated',
  'invite.deleted': 'Invite link deleted',
  'user.updated': 'User profile updated',
  'team.created': 'Team created',
  'team.updated': 'Team updated',
  'team.deleted': 'Team deleted',
  'team.members.updated': 'Team members updated',
  'collection.created': 'Collection created',
  'collection.updated': 'Collection updated',
  'collection.moved': 'Collection moved',
  'collection.deleted': 'Collection deleted',
  'space.created': 'Space created',
  'space.updated': 'Space updated',
  'space.moved': 'Space moved',
  'space.deleted': 'Space deleted',
  'space.restored': 'Space restored',
  'space.permissions.updated': 'Space permissions updated',
  'collection.permissions.updated': 'Collection permissions updated',
  'space.content.updated': 'Space content updated',
  'space.gitsync.started': 'Git Sync started',
  'space.gitsync.completed': 'Git Sync completed',
  'change_request.created': 'Change request created',
  'change_request.updated': 'Change request updated',
  'change_request.merged': 'Change request merged',
  'change_request.closed': 'Change request closed',
  'change_request.review_submitted': 'Change request review submitted',
  'change_request.reviewers_requested': 'Change request reviewers requested',
  'change_request.reviewer_removed': 'Change request reviewer removed',
  'comment.created': 'Comment posted',
  'comment.updated': 'Comment updated',
  'comment.deleted': 'Comment deleted',
  'site.created': 'Site created',
  'site.updated': 'Site updated',
  'site.published': 'Site published',
  'site.unpublished': 'Site unpublished',
  'site.deleted': 'Site deleted',
  'site.structure.updated': 'Site structure updated',
  'site.permissions.updated': 'Site permissions updated',
  'site.custom_hostname.updated': 'Site custom hostname claimed or verified',
  'site.custom_hostname.removed': 'Site custom hostname removed',
  'site.customization.updated': 'Site customization updated',
  'site.space_customization.updated': 'Site space customization updated',
  'site.ads.updated': 'Site ads updated',
  'site.adaptive_schema.updated': 'Site adaptive schema updated',
  'site.publishing_auth.updated': 'Site visitor authentication updated',
  'site.publishing_auth.key_rotated': 'Site visitor key regenerated',
  'site.redirect.created': 'Site redirect created',
  'site.redirect.updated': 'Site redirect updated',
  'site.redirect.deleted': 'Site redirect deleted',
  'share_link.created': 'Share link created',
  'share_link.updated': 'Share link updated',
  'share_link.deleted': 'Share link deleted',
  'openapi.spec.created': 'OpenAPI specification created',
  'openapi.spec.updated': 'OpenAPI specification updated',
  'openapi.spec.deleted': 'OpenAPI specification deleted',
  'openapi.version.created': 'OpenAPI version created',
  'openapi.processing.failed': 'OpenAPI processing failed',
  'integration.published': 'Integration published',
  'integration.installation_setup': 'Integration installed',
  'integration.space_installation_setup': 'Integration installed on a space',
  'translation.created': 'Translation created',
  'translation.updated': 'Translation updated',
  'translation.deleted': 'Translation deleted',
  'translation.run_started': 'Translation run started',
  'translation.run_completed': 'Translation run completed',
  'storage.upload_created': 'Upload URL created',
  'storage.upload_completed': 'File uploaded',
  'token.created': 'Access token created',
  'token.revoked': 'Access token revoked',
  'user.signed_in': 'Signed in',
  'user.sign_in_failed': 'Sign-in failed',
  'user.signed_out': 'Signed out',
  'user.password_changed': 'Password changed',
  'session.revoked': 'Session revoked',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook updated',
  'webhook.deleted': 'Webhook deleted',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'webhook.ping': 'Webhook pinged',
  'webhook.redelivered': 'Webhook delivery sent again',
  'saml_provider.created': 'SAML provider created',
  'saml_provider.updated': 'SAML provider updated',
  'saml_provider.deleted': 'SAML provider deleted',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** What a change records: the resource it touched and that resource as the API presents it. */
export interface EventInput {
  type: EventType;
  organizationId: string;
  target: { object: string; id: string; label?: string | null };
  data: { object: unknown; previous?: Record<string, unknown> };
}

/**
 * Whether a webhook's subscription (`*`, `space.*`, or a type) covers `type`. A family matches the
 * types under it, `space.*` matching `space.content.updated` too.
 */
export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}

/** Whether `pattern` names something a webhook can subscribe to: a known type, a family of them, or `*`. */
export function isSubscribable(pattern: string): boolean {
  if (pattern === '*' || isEventType(pattern)) return true;
  if (!pattern.endsWith('.*')) return false;
  const prefix = pattern.slice(0, -1);
  return Object.keys(EVENT_TYPES).some((t) => t.startsWith(prefix));
}
