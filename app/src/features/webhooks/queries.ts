/** The organization's webhooks and one webhook's deliveries (organization admins only). */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { List } from '../../api/types';
import type { DeliveryStatus, Webhook, WebhookDelivery } from './types';

const webhooksPath = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}/webhooks`;
const webhookPath = (organizationId: string, webhookId: string) =>
  `${webhooksPath(organizationId)}/${encodeURIComponent(webhookId)}`;

export const webhooksQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'webhooks'],
    queryFn: ({ signal }) => requestAll<Webhook>(webhooksPath(organizationId), signal),
  });

export const webhookQuery = (organizationId: string, webhookId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'webhooks', webhookId],
    queryFn: ({ signal }) => request<Webhook>(webhookPath(organizationId, webhookId), { signal }),
  });

export const DELIVERIES_PAGE = 20;

/** One page of deliveries, newest first, of one status or all (`''`). */
export const deliveriesQuery = (
  organizationId: string,
  webhookId: string,
  status: DeliveryStatus | '',
  page?: string,
) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'webhooks', webhookId, 'deliveries', status, page ?? ''],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ limit: String(DELIVERIES_PAGE) });
      if (status) query.set('status', status);
      if (page) query.set('page', page);
      return request<List<WebhookDelivery>>(`${webhookPath(organizationId, webhookId)}/deliveries?${query}`, {
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

export function useCreateWebhook(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; events: string[]; description?: string }) =>
      request<Webhook & { secret: string }>(webhooksPath(organizationId), { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksQuery(organizationId).queryKey }),
  });
}

export function useDeleteWebhook(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => request<void>(webhookPath(organizationId, webhookId), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksQuery(organizationId).queryKey }),
  });
}

/** Sends a `webhook.ping` event now (`…/ping`), or a delivery again (`…/deliveries/{id}/redeliver`). */
export function useSendDelivery(organizationId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string | null) =>
      request<WebhookDelivery>(
        deliveryId
          ? `${webhookPath(organizationId, webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`
          : `${webhookPath(organizationId, webhookId)}/ping`,
        { method: 'POST' },
      ),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: [...webhookQuery(organizationId, webhookId).queryKey, 'deliveries'] }),
  });
}
