import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import {
  webhookEndpointEventSchema,
  webhookEndpointHealthSchema,
  webhookEndpointSchema,
} from '../../domain/webhooks/schemas';
import { getJson } from '../api';

export const webhookEndpointsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['webhook-endpoints', organizationId],
    queryFn: () =>
      getJson(
        `/v1/webhooks/endpoints?organization_id=${organizationId}&limit=100`,
        listResourceSchema(webhookEndpointSchema),
      ),
  });

export const webhookEndpointQuery = (endpointId: string) =>
  queryOptions({
    queryKey: ['webhook-endpoint', endpointId],
    queryFn: () => getJson(`/v1/webhooks/endpoints/${endpointId}`, webhookEndpointSchema),
  });

export const EVENTS_PAGE_SIZE = 20;

/** Health of the organization's endpoints, one per endpoint of `webhookEndpointsQuery`. */
export const webhookHealthListQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['webhook-endpoints', organizationId, 'health'],
    queryFn: () =>
      getJson(
        `/v1/webhooks/health?organization_id=${organizationId}&limit=100`,
        listResourceSchema(webhookEndpointHealthSchema),
      ),
  });

export const webhookEndpointHealthQuery = (endpointId: string) =>
  queryOptions({
    queryKey: ['webhook-endpoint', endpointId, 'health'],
    queryFn: () => getJson(`/v1/webhooks/endpoints/${endpointId}/health`, webhookEndpointHealthSchema),
  });

export const webhookEndpointEventsQuery = (endpointId: string, page: number) =>
  queryOptions({
    queryKey: ['webhook-deliveries', endpointId, 'events', page],
    queryFn: () =>
      getJson(
        `/v1/webhooks/endpoints/${endpointId}/events?page=${page}&limit=${EVENTS_PAGE_SIZE}`,
        listResourceSchema(webhookEndpointEventSchema),
      ),
  });
