/**
 * `/o/{organizationId}/webhooks/{webhookId}`: one webhook, "Send test event", and its deliveries
 * (newest first, by status, paged), each with its attempts and "Redeliver".
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { usePager } from '../../api/pager';
import { Choice } from '../controls/Choice';
import { PagerNav } from '../controls/PagerNav';
import { ApiErrorText } from '../layout/ApiErrorText';
import { Loading } from '../layout/Loading';
import { OrgLayout } from '../organizations/OrgLayout';
import { deliveriesQuery, useSendDelivery, webhookQuery } from './queries';
import { DELIVERY_STATUSES, type DeliveryStatus, type WebhookDelivery } from './types';

const when = (iso: string) => new Date(iso).toLocaleString();

const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  ...DELIVERY_STATUSES.map((status) => ({ value: status, label: status.charAt(0).toUpperCase() + status.slice(1) })),
] as const;

export function WebhookScreen() {
  const { organizationId, webhookId } = useParams({ from: '/o/$organizationId/webhooks/$webhookId' });
  const { data: webhook } = useSuspenseQuery(webhookQuery(organizationId, webhookId));
  const send = useSendDelivery(organizationId, webhookId);
  const [status, setStatus] = useState<DeliveryStatus | 'all'>('all');
  const pager = usePager();
  const deliveries = useQuery(deliveriesQuery(organizationId, webhookId, status === 'all' ? '' : status, pager.page));
  const statusId = useId();

  return (
    <OrgLayout organizationId={organizationId}>
      <p className="space-title">
        <Link to="/o/$organizationId/webhooks" params={{ organizationId }}>
          Webhooks
        </Link>
      </p>
      <h1 className="break">{webhook.url}</h1>
      <p className="muted">
        {webhook.events.join(', ')} ·{' '}
        {webhook.active ? 'active' : `inactive${webhook.deactivatedReason ? `: ${webhook.deactivatedReason}` : ''}`}
      </p>
      <div className="actions">
        <button type="button" onClick={() => send.mutate(null)} disabled={send.isPending}>
          Send test event
        </button>
      </div>
      <ApiErrorText error={send.error} />
      <h2>Deliveries</h2>
      <div className="inline-form">
        <label htmlFor={statusId}>Delivery status</label>
        <Choice
          id={statusId}
          value={status}
          options={STATUS_OPTIONS}
          onChange={(value) => {
            setStatus(value);
            pager.reset();
          }}
        />
        <button type="button" onClick={() => deliveries.refetch()}>
          Refresh
        </button>
      </div>
      {deliveries.error ? (
        <ApiErrorText error={deliveries.error} />
      ) : !deliveries.data ? (
        <Loading label="Loading deliveries" />
      ) : deliveries.data.items.length === 0 ? (
        <p>No deliveries.</p>
      ) : (
        <>
          <p className="muted">{deliveries.data.count ?? deliveries.data.items.length} in all.</p>
          <table className="data-table">
            <caption className="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} onRedeliver={() => send.mutate(delivery.id)} />
              ))}
            </tbody>
          </table>
          <PagerNav label="Delivery pages" pager={pager} next={deliveries.data.next?.page} />
        </>
      )}
    </OrgLayout>
  );
}

function DeliveryRow({ delivery, onRedeliver }: { delivery: WebhookDelivery; onRedeliver: () => void }) {
  const last = delivery.attempts.at(-1);
  return (
    <tr>
      <td data-label="Event">{delivery.event.type}</td>
      <td data-label="Status">
        <span className={`status status-${delivery.status}`}>{delivery.status}</span>
      </td>
      <td data-label="Attempts">
        {delivery.attempts.length}
        {last ? (
          <span className="muted">
            {' '}
            (last: {last.responseStatus ?? last.error ?? 'no answer'}, {last.durationMs} ms)
          </span>
        ) : null}
      </td>
      <td data-label="Created">{when(delivery.createdAt)}</td>
      <td>
        <button
          type="button"
          onClick={onRedeliver}
          aria-label={`Redeliver ${delivery.event.type} of ${when(delivery.createdAt)}`}
        >
          Redeliver
        </button>
      </td>
    </tr>
  );
}
