import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { webhookEndpointSchema, type WebhookEndpointResponse } from '../../../../domain/webhooks/schemas';
import { deleteResource, sendJson } from '../../../api';
import { Card, ConfirmButton, formatDateTime, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { ResourceCard, ResourceTable, type Column } from '../../../resources/resource-page';
import { HealthBadge, shortSuccessSummary } from '../../../webhooks/health';
import { webhookEndpointsQuery, webhookHealthListQuery } from '../../../webhooks/queries';
import { WebhookEndpointForm } from './-components/webhook-endpoint-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/webhooks/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (!organizationId) return;
    prefetch(queryClient, webhookEndpointsQuery(organizationId));
    prefetch(queryClient, webhookHealthListQuery(organizationId));
  },
  component: WebhooksPage,
});

function WebhooksPage() {
  return (
    <>
      <PageTitle title="Webhooks" />
      <WebhooksPageContent />
    </>
  );
}

function WebhooksPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its webhooks.</p>;
  return <Webhooks organizationId={organizationId} />;
}

function Webhooks({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const endpoints = useQuery(webhookEndpointsQuery(organizationId));
  const health = useQuery(webhookHealthListQuery(organizationId));
  const healthOf = new Map((health.data?.items ?? []).map((item) => [item.endpoint_id, item]));
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);

  async function act(action: () => Promise<unknown>) {
    try {
      await action();
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
    await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints', organizationId] });
  }

  const actionsColumn: Column<WebhookEndpointResponse> = {
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
  };

  return (
    <>
      {canManage ? <WebhookEndpointForm organizationId={organizationId} /> : null}
      {canManage === false ? (
        <Card title="Add an endpoint">
          <p className="muted">Only owners and admins can add or change webhook endpoints.</p>
        </Card>
      ) : null}
      <ResourceCard
        title="Webhook endpoints"
        error={endpoints.error?.message ?? error}
        items={endpoints.data?.items}
        empty={
          canManage === false
            ? 'No endpoints yet. An owner or admin of the organization can add one.'
            : 'No endpoints yet. Add one above: the URL of a receiver that accepts POST requests and the events it handles. Its page then has “Send test event” to check that it works.'
        }
      >
        <ResourceTable
          items={endpoints.data?.items}
          rowTestId="webhook-row"
          columns={[
            {
              header: 'URL',
              cell: (endpoint) => (
                <Link to="/dashboard/webhooks/$endpointId" params={{ endpointId: endpoint.id }}>
                  <Truncated text={endpoint.url} />
                </Link>
              ),
            },
            { header: 'Format', cell: (endpoint) => endpoint.format },
            {
              header: 'Events',
              cell: (endpoint) =>
                endpoint.events.length === 0 ? (
                  <span className="badge badge-warn" title="Nothing is sent to an endpoint without events.">
                    None
                  </span>
                ) : (
                  endpoint.events.length
                ),
            },
            { header: 'Status', cell: (endpoint) => (endpoint.enabled ? 'Enabled' : 'Disabled') },
            {
              header: 'Health, last 7 days',
              testId: 'webhook-health-cell',
              cell: (endpoint) => {
                const item = healthOf.get(endpoint.id);
                return item ? (
                  <>
                    <HealthBadge health={item} />{' '}
                    {item.success_rate === null ? null : (
                      <span className="muted">{shortSuccessSummary(item)}</span>
                    )}
                  </>
                ) : (
                  '—'
                );
              },
            },
            { header: 'Created', cell: (endpoint) => formatDateTime(endpoint.created_at) },
            ...(canManage ? [actionsColumn] : []),
          ]}
        />
      </ResourceCard>
    </>
  );
}
