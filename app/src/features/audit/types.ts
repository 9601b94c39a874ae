/** The audit log's objects, in the official document's shapes. */
export interface AuditEvent {
  object: 'audit-event';
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  source: string;
  target: { type: string; id: string; label?: string };
}

export interface AuditEventAction {
  object: 'audit-event-action';
  id: string;
  label: string;
}

/** The list's filters, as the screen holds them ('' for none); dates are `YYYY-MM-DD`, local. */
export interface AuditFilters {
  action: string;
  actor: string;
  target: string;
  fromDate: string;
  toDate: string;
}

export const NO_FILTERS: AuditFilters = { action: '', actor: '', target: '', fromDate: '', toDate: '' };
