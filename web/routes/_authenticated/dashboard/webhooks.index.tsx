import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { webhookEndpointSchema } from '../../../../domain/webhooks/schemas';
import { deleteResource, sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, formatDateTime, formValues } from '../../../components';
import { checkedEvents, EndpointFields, SecretOnce } from '../../../webhooks/components';
import { webhookEndpointsQuery } from '../../../webhooks/queries';
import { generateWebhookSecret } from '../../../webhooks/secret';

export const Route = createFileRoute('/_authenticated/dashboard/webhooks/')({ component: WebhooksPage });

function CreateEndpoint({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  // Remounts the fields after a creation, which empties them.
  const [generation, setGeneration] = useState(0);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const chosen = values.secret || generateWebhookSecret();
    try {
      await sendJson(
        'POST',
        '/v1/webhooks/endpoints',
        {
          organization_id: organizationId,
          url: values.url,
          format: values.format,
          events: checkedEvents(form),
          secret: chosen,
        },
        webhookEndpointSchema,
      );
      setError(null);
      setSecret(chosen);
      setGeneration(generation + 1);
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <Card title="Add an endpoint">
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <form key={generation} onSubmit={onSubmit} className="stack" noValidate>
        <EndpointFields />
        <label className="field">
          <span>Signing secret (leave empty to generate one)</span>
          <input name="secret" autoComplete="off" />
        </label>
        <div>
          <button type="submit">Add endpoint</button>
        </div>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function WebhooksPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const endpoints = useQuery({
    ...webhookEndpointsQuery(organizationId ?? ''),
    enabled: Boolean(organizationId),
  });
  if (!organizationId) return <p>Choose an organization to see its webhooks.</p>;

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
      <CreateEndpoint organizationId={organizationId} />
      <Card title="Webhook endpoints">
        <ErrorNote message={endpoints.error?.message ?? error} />
        {endpoints.data?.items.length === 0 ? <p className="muted">No endpoints yet.</p> : null}
        <table className="data-table">
          <thead>
            <tr>
              <th>URL</th>
              <th>Format</th>
              <th>Events</th>
              <th>Status</th>
              <th>Created</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {(endpoints.data?.items ?? []).map((endpoint) => (
              <tr key={endpoint.id} data-testid="webhook-row">
                <td>
                  <Link to="/dashboard/webhooks/$endpointId" params={{ endpointId: endpoint.id }}>
                    {endpoint.url}
                  </Link>
                </td>
                <td>{endpoint.format}</td>
                <td>{endpoint.events.length}</td>
                <td>{endpoint.enabled ? 'Enabled' : 'Disabled'}</td>
                <td>{formatDateTime(endpoint.created_at)}</td>
                <td className="actions">
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
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
