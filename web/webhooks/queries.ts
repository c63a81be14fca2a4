import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import { webhookDeliverySchema, webhookEndpointSchema } from '../../domain/webhooks/schemas';
import { getJson } from '../api';

export const DELIVERIES_PAGE_SIZE = 20;

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

export const webhookDeliveriesQuery = (endpointId: string, page: number) =>
  queryOptions({
    queryKey: ['webhook-deliveries', endpointId, page],
    queryFn: () =>
      getJson(
        `/v1/webhooks/deliveries?endpoint_id=${endpointId}&page=${page}&limit=${DELIVERIES_PAGE_SIZE}`,
        listResourceSchema(webhookDeliverySchema),
      ),
  });
