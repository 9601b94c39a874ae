/**
 * `/o/{organizationId}/webhooks`: the organization's webhooks (admins only), each a link to its
 * deliveries; "New webhook" (its signing secret shown once) and "Delete".
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { CloseButton, Modal } from '../controls/Modal';
import { ApiErrorText } from '../layout/ApiErrorText';
import { ConfirmButton } from '../layout/ConfirmButton';
import { OrgLayout } from '../organizations/OrgLayout';
import { parseEvents } from './events';
import { useCreateWebhook, useDeleteWebhook, webhooksQuery } from './queries';

export function WebhooksScreen() {
  const { organizationId } = useParams({ from: '/o/$organizationId/webhooks' });
  const { data: webhooks } = useSuspenseQuery(webhooksQuery(organizationId));
  const remove = useDeleteWebhook(organizationId);
  return (
    <OrgLayout organizationId={organizationId}>
      <h1>Webhooks</h1>
      <p className="muted">Each webhook receives the organization's events it subscribes to, signed.</p>
      <NewWebhookDialog organizationId={organizationId} />
      {webhooks.length === 0 ? (
        <p>No webhooks.</p>
      ) : (
        <ul className="rows">
          {webhooks.map((webhook) => (
            <li key={webhook.id} className="row">
              <span>
                <Link to="/o/$organizationId/webhooks/$webhookId" params={{ organizationId, webhookId: webhook.id }}>
                  {webhook.url}
                </Link>{' '}
                <span className="muted">
                  {webhook.events.join(', ')} · {webhook.active ? 'active' : 'inactive'}
                  {webhook.description ? ` · ${webhook.description}` : ''}
                </span>
              </span>
              <ConfirmButton
                label={`Delete the webhook to ${webhook.url}`}
                title="Delete this webhook?"
                description={`Events stop being sent to ${webhook.url}, and its deliveries are forgotten.`}
                confirm="Delete webhook"
                onConfirm={() => remove.mutate(webhook.id)}
              >
                Delete
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <ApiErrorText error={remove.error} />
    </OrgLayout>
  );
}

function NewWebhookDialog({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  const create = useCreateWebhook(organizationId);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [description, setDescription] = useState('');
  const ids = { url: useId(), events: useId(), description: useId() };

  function change(next: boolean) {
    setOpen(next);
    if (!next) {
      create.reset();
      setUrl('');
      setEvents('*');
      setDescription('');
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({
      url: url.trim(),
      events: parseEvents(events),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
  }

  return (
    <Modal
      open={open}
      onOpenChange={change}
      trigger={<button type="button">New webhook</button>}
      title="New webhook"
      description={
        create.data
          ? `The webhook to ${create.data.url} is created. Its signing secret is shown only now:`
          : 'Bindery posts each event to this address, signed (Standard Webhooks).'
      }
    >
      {create.data ? (
        <>
          <p className="new-token">
            <code>{create.data.secret}</code>
          </p>
          <div className="actions">
            <CloseButton>Done</CloseButton>
          </div>
        </>
      ) : (
        <form onSubmit={submit} className="stacked-form">
          <label htmlFor={ids.url}>Receiver address</label>
          <input id={ids.url} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
          <label htmlFor={ids.events}>Events</label>
          <input
            id={ids.events}
            type="text"
            required
            value={events}
            onChange={(e) => setEvents(e.target.value)}
            aria-describedby={`${ids.events}-hint`}
          />
          <p id={`${ids.events}-hint`} className="muted hint-text">
            Event types (space.updated), families (space.*) or * for all, separated by commas.
          </p>
          <label htmlFor={ids.description}>Description (optional)</label>
          <input
            id={ids.description}
            type="text"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <div className="actions">
            <button type="submit" disabled={create.isPending}>
              Create webhook
            </button>
            <CloseButton>Cancel</CloseButton>
          </div>
          <ApiErrorText error={create.error} />
        </form>
      )}
    </Modal>
  );
}
