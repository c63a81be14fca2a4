import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { webhookEndpointDeliveryWorkflowId } from '../../../../domain/webhooks/rules';
import type { WebhookEndpointResponse } from '../../../../domain/webhooks/schemas';
import { sendJson } from '../../../api';
import { Card, ErrorNote, SuccessNote } from '../../../components';
import { prefetch } from '../../../loaders';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { WorkflowLink } from '../../../system/workflow-link';
import { EndpointHealthCard } from '../../../webhooks/health';
import {
  webhookEndpointEventsQuery,
  webhookEndpointHealthQuery,
  webhookEndpointQuery,
} from '../../../webhooks/queries';
import { WebhookDeliveryLog } from './-components/webhook-delivery-log';
import { WebhookEndpointSettings } from './-components/webhook-endpoint-settings';
import { PageTitle } from '../../../shell/page-title';

/** Health follows the deliveries the worker makes in the background. */
const HEALTH_REFRESH_MS = 5_000;

export const Route = createFileRoute('/_authenticated/dashboard/webhooks/$endpointId')({
  loader: ({ context: { queryClient }, params: { endpointId } }) => {
    prefetch(queryClient, webhookEndpointQuery(endpointId));
    prefetch(queryClient, webhookEndpointHealthQuery(endpointId));
    prefetch(queryClient, webhookEndpointEventsQuery(endpointId, 1));
  },
  component: EndpointPage,
});

function EndpointPage() {
  const { endpointId } = Route.useParams();
  const endpoint = useQuery(webhookEndpointQuery(endpointId));
  return (
    <>
      <PageTitle title={endpoint.data?.url ?? 'Webhook endpoint'} />
      <EndpointPageContent />
    </>
  );
}

function EndpointPageContent() {
  const { endpointId } = Route.useParams();
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const endpoint = useQuery(webhookEndpointQuery(endpointId));
  const health = useQuery({ ...webhookEndpointHealthQuery(endpointId), refetchInterval: HEALTH_REFRESH_MS });
  return (
    <>
      <p>
        <Link to="/dashboard/webhooks">← All endpoints</Link>
      </p>
      <ErrorNote message={endpoint.error?.message ?? health.error?.message ?? null} />
      {health.data ? <EndpointHealthCard health={health.data} /> : null}
      {endpoint.data && canManage !== null ? (
        <TestEventCard endpoint={endpoint.data} canManage={canManage} />
      ) : null}
      {endpoint.data ? <WebhookEndpointSettings endpoint={endpoint.data} canManage={canManage} /> : null}
      <p>
        {/* First attempts go out in this endpoint's batches; an event that needs retries gets its own. */}
        <WorkflowLink workflowId={webhookEndpointDeliveryWorkflowId(endpointId)} />
      </p>
      <WebhookDeliveryLog endpointId={endpointId} canManage={canManage} />
    </>
  );
}

/**
 * "Send test event": an `organization.updated` with the organization as it is now, sent to this
 * endpoint alone through the real delivery path, so it shows in the log below.
 */
function TestEventCard({ endpoint, canManage }: { endpoint: WebhookEndpointResponse; canManage: boolean }) {
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!canManage) {
    return (
      <Card title="Test event">
        <p className="muted">Only owners and admins can send test events.</p>
      </Card>
    );
  }
  async function send() {
    try {
      await sendJson('POST', `/v1/webhooks/endpoints/${endpoint.id}/test`, {}, z.null());
      setError(null);
      setSent('Test event queued: it appears in the delivery log in a few seconds.');
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpoint.id] });
    } catch (failure) {
      setSent(null);
      setError((failure as Error).message);
    }
  }
  return (
    <Card title="Test event">
      <p>
        Sends an <code>organization.updated</code> event carrying your organization as it is now, signed with
        this endpoint&apos;s secret, to this endpoint only — whatever events it subscribes to.
      </p>
      {endpoint.enabled ? null : <p className="muted">Enable the endpoint to send a test event.</p>}
      <div className="button-row">
        <button type="button" disabled={!endpoint.enabled} onClick={() => void send()}>
          Send test event
        </button>
      </div>
      <SuccessNote message={sent} />
      <ErrorNote message={error} />
    </Card>
  );
}
