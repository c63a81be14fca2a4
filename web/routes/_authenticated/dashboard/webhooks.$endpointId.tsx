import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ErrorNote } from '../../../components';
import { prefetch } from '../../../loaders';
import { webhookDeliveriesQuery, webhookEndpointQuery } from '../../../webhooks/queries';
import { WebhookDeliveryLog } from './-components/webhook-delivery-log';
import { WebhookEndpointSettings } from './-components/webhook-endpoint-settings';

export const Route = createFileRoute('/_authenticated/dashboard/webhooks/$endpointId')({
  loader: ({ context: { queryClient }, params: { endpointId } }) => {
    prefetch(queryClient, webhookEndpointQuery(endpointId));
    prefetch(queryClient, webhookDeliveriesQuery(endpointId, 1));
  },
  component: EndpointPage,
});

function EndpointPage() {
  const { endpointId } = Route.useParams();
  const endpoint = useQuery(webhookEndpointQuery(endpointId));
  return (
    <>
      <p>
        <Link to="/dashboard/webhooks">← All endpoints</Link>
      </p>
      <ErrorNote message={endpoint.error?.message ?? null} />
      {endpoint.data ? <WebhookEndpointSettings endpoint={endpoint.data} /> : null}
      <WebhookDeliveryLog endpointId={endpointId} />
    </>
  );
}
