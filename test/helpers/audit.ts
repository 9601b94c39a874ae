/** Reading the audit log through the API, for tests of the events a change records. */
import { expect } from 'vitest';
import type { Client } from './app.js';

export interface AuditItem {
  id: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  source: string;
  target: { type: string; id: string; label?: string };
}

/** The organization's audit events (newest first), optionally narrowed by `action`. */
export async function auditEvents(admin: Client, org: string, action?: string): Promise<AuditItem[]> {
  const res = await admin.get(`/v1/orgs/${org}/audit-events?limit=100${action ? `&action=${action}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.items;
}

/**
 * The one `action` event of the organization, checked to be by `actorId` (a user, or `system`) on
 * `target`; with its payload (`data`: the object as presented, and `previous`).
 */
export async function recorded(
  admin: Client,
  org: string,
  action: string,
  expected: { actor: string; target: { type: string; id: string }; source?: string },
): Promise<AuditItem & { payload: { object: any; previous?: Record<string, unknown> } }> {
  const items = await auditEvents(admin, org, action);
  expect(items.map((e) => e.action)).toEqual([action]);
  const [item] = items as [AuditItem];
  expect(item.actor.id).toBe(expected.actor);
  expect(item.target).toMatchObject(expected.target);
  expect(item.source).toBe(expected.source ?? 'api');
  const details = await admin.get(`/v1/orgs/${org}/audit-events/${item.id}`);
  expect(details.status).toBe(200);
  return { ...item, payload: details.body.payload };
}
