import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { webhookEndpointSchema } from '../../../../domain/webhooks/schemas';
import { deleteResource, sendJson } from '../../../api';
import { ConfirmButton, formatDateTime } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { webhookEndpointsQuery } from '../../../webhooks/queries';
import { WebhookEndpointForm } from './-components/webhook-endpoint-form';

export const Route = createFileRoute('/_authenticated/dashboard/webhooks/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, webhookEndpointsQuery(organizationId));
  },
  component: WebhooksPage,
});

function WebhooksPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its webhooks.</p>;
  return <Webhooks organizationId={organizationId} />;
}

function Webhooks({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const endpoints = useQuery(webhookEndpointsQuery(organizationId));

  async function act(action: () => Promise<unknown>) {
    try {
      await action();
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
    await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints', organizationId] });
  }

  return (
    <>
      <WebhookEndpointForm organizationId={organizationId} />
      <ResourceCard
        title="Webhook endpoints"
        error={endpoints.error?.message ?? error}
        items={endpoints.data?.items}
        empty="No endpoints yet."
      >
        <ResourceTable
          items={endpoints.data?.items}
          rowTestId="webhook-row"
          columns={[
            {
              header: 'URL',
              cell: (endpoint) => (
                <Link to="/dashboard/webhooks/$endpointId" params={{ endpointId: endpoint.id }}>
                  {endpoint.url}
                </Link>
              ),
            },
            { header: 'Format', cell: (endpoint) => endpoint.format },
            { header: 'Events', cell: (endpoint) => endpoint.events.length },
            { header: 'Status', cell: (endpoint) => (endpoint.enabled ? 'Enabled' : 'Disabled') },
            { header: 'Created', cell: (endpoint) => formatDateTime(endpoint.created_at) },
            {
              header: 'Actions',
              className: 'actions',
              cell: (endpoint) => (
                <>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`${endpoint.enabled ? 'Disable' : 'Enable'} ${endpoint.url}`}
                    onClick={() =>
                      void act(() =>
                        sendJson(
                          'PATCH',
                          `/v1/webhooks/endpoints/${endpoint.id}`,
                          { enabled: !endpoint.enabled },
                          webhookEndpointSchema,
                        ),
                      )
                    }
                  >
                    {endpoint.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <ConfirmButton
                    label={`Delete ${endpoint.url}`}
                    text="Delete"
                    question="Delete this endpoint?"
                    onConfirm={() => act(() => deleteResource(`/v1/webhooks/endpoints/${endpoint.id}`))}
                  />
                </>
              ),
            },
          ]}
        />
      </ResourceCard>
    </>
  );
}
