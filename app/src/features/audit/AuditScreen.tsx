/**
 * `/o/{organizationId}/audit`: the organization's audit log (admins only), newest first, filtered by
 * action, actor, target and a range of days, paged.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { usePager } from '../../api/pager';
import { Choice } from '../controls/Choice';
import { PagerNav } from '../controls/PagerNav';
import { ApiErrorText } from '../layout/ApiErrorText';
import { Loading } from '../layout/Loading';
import { membersQuery } from '../members/queries';
import { OrgLayout } from '../organizations/OrgLayout';
import { auditActionsQuery, auditEventsQuery } from './queries';
import { type AuditEvent, type AuditFilters, NO_FILTERS } from './types';

/** The Select's value for "no filter" (a Radix Select item cannot have the empty value). */
const ANY = 'any';

export function AuditScreen() {
  const { organizationId } = useParams({ from: '/o/$organizationId/audit' });
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const pager = usePager();
  const events = useQuery(auditEventsQuery(organizationId, filters, pager.page));
  const { data: actions } = useSuspenseQuery(auditActionsQuery(organizationId));
  const labels = new Map(actions.items.map((a) => [a.id, a.label]));

  return (
    <OrgLayout organizationId={organizationId}>
      <h1>Audit log</h1>
      <FilterForm
        organizationId={organizationId}
        actions={actions.items.map((a) => ({ value: a.id, label: a.label }))}
        onApply={(next) => {
          setFilters(next);
          pager.reset();
        }}
      />
      {events.error ? (
        <ApiErrorText error={events.error} />
      ) : !events.data ? (
        <Loading label="Loading the audit log" />
      ) : events.data.items.length === 0 ? (
        <p role="status">No events match.</p>
      ) : (
        <>
          <p role="status" className="muted">
            {events.data.count} {events.data.count === 1 ? 'event' : 'events'}.
          </p>
          <table className="data-table">
            <caption className="visually-hidden">Audit events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {events.data.items.map((event) => (
                <EventRow key={event.id} event={event} label={labels.get(event.action)} />
              ))}
            </tbody>
          </table>
          <PagerNav label="Audit log pages" pager={pager} next={events.data.next?.page} />
        </>
      )}
    </OrgLayout>
  );
}

function EventRow({ event, label }: { event: AuditEvent; label?: string }) {
  return (
    <tr>
      <td data-label="When">{new Date(event.occurredAt).toLocaleString()}</td>
      <td data-label="Action">
        {label ?? event.action} <span className="muted">({event.action})</span>
      </td>
      <td data-label="Actor">{event.actor.label ?? event.actor.id}</td>
      <td data-label="Target">
        {event.target.label ?? event.target.id} <span className="muted">({event.target.type})</span>
      </td>
      <td data-label="Source">{event.source}</td>
    </tr>
  );
}

function FilterForm({
  organizationId,
  actions,
  onApply,
}: {
  organizationId: string;
  actions: { value: string; label: string }[];
  onApply: (filters: AuditFilters) => void;
}) {
  const { data: members } = useSuspenseQuery(membersQuery(organizationId));
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const ids = { action: useId(), actor: useId(), target: useId(), from: useId(), to: useId() };
  const set = (key: keyof AuditFilters) => (value: string) =>
    setDraft((now) => ({ ...now, [key]: value === ANY ? '' : value }));
  const actionOptions = [{ value: ANY, label: 'Any action' }, ...actions];
  const actorOptions = [
    { value: ANY, label: 'Anyone' },
    ...members.map((m) => ({ value: m.user.id, label: m.user.displayName })),
  ];

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  return (
    <form onSubmit={submit} className="filters" aria-label="Filter the audit log">
      <div>
        <label htmlFor={ids.action}>Action</label>
        <Choice id={ids.action} value={draft.action || ANY} options={actionOptions} onChange={set('action')} />
      </div>
      <div>
        <label htmlFor={ids.actor}>Actor</label>
        <Choice id={ids.actor} value={draft.actor || ANY} options={actorOptions} onChange={set('actor')} />
      </div>
      <div>
        <label htmlFor={ids.target}>Target id</label>
        <input id={ids.target} type="text" value={draft.target} onChange={(e) => set('target')(e.target.value)} />
      </div>
      <div>
        <label htmlFor={ids.from}>From date</label>
        <input id={ids.from} type="date" value={draft.fromDate} onChange={(e) => set('fromDate')(e.target.value)} />
      </div>
      <div>
        <label htmlFor={ids.to}>To date</label>
        <input id={ids.to} type="date" value={draft.toDate} onChange={(e) => set('toDate')(e.target.value)} />
      </div>
      <div className="filter-actions">
        <button type="submit">Apply filters</button>
        <button
          type="reset"
          onClick={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
