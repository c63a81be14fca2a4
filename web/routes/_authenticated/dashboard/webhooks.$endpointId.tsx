import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { webhookEndpointSchema, type WebhookDeliveryResponse } from '../../../../domain/webhooks/schemas';
import { deleteResource, sendJson } from '../../../api';
import { Card, ConfirmButton, ErrorNote, formatDateTime, formValues, SuccessNote } from '../../../components';
import { checkedEvents, EndpointFields, SecretOnce } from '../../../webhooks/components';
import { webhookDeliveriesQuery, webhookEndpointQuery } from '../../../webhooks/queries';
import { generateWebhookSecret } from '../../../webhooks/secret';

export const Route = createFileRoute('/_authenticated/dashboard/webhooks/$endpointId')({
  component: EndpointPage,
});

/** The worker delivers in the background: the log refreshes itself while the page is open. */
const DELIVERY_REFRESH_MS = 3_000;

const payloadSummarySchema = z.object({
  type: z.string(),
  data: z.object({ id: z.string().optional(), name: z.string().optional() }).loose().optional(),
});

/** "product.created · Pro plan": what a row is about, read from the body that was sent. */
function summarize(payload: string): { type: string; subject: string } {
  try {
    const parsed = payloadSummarySchema.parse(JSON.parse(payload));
    return { type: parsed.type, subject: parsed.data?.name ?? parsed.data?.id ?? '' };
  } catch {
    // Discord and Slack bodies are chat messages, not events.
    return { type: 'message', subject: '' };
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DeliveryRow({ delivery }: { delivery: WebhookDeliveryResponse }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { type, subject } = summarize(delivery.webhook_event.payload);
  const status = delivery.succeeded ? 'Succeeded' : 'Failed';
  return (
    <li className="delivery" data-testid="delivery-row">
      <details>
        <summary>
          <span className={delivery.succeeded ? 'badge badge-ok' : 'badge badge-error'}>
            {status} {delivery.http_code ?? ''}
          </span>{' '}
          <strong>{type}</strong> {subject} · {formatDateTime(delivery.created_at)} · {delivery.duration_ms}{' '}
          ms
        </summary>
        <h3>Payload</h3>
        <pre className="message-text" data-testid="delivery-payload">
          {prettyJson(delivery.webhook_event.payload)}
        </pre>
        <h3>Response</h3>
        {delivery.error ? <p className="error-note">{delivery.error}</p> : null}
        <pre className="message-text">{delivery.response ?? '(empty)'}</pre>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void sendJson('POST', `/v1/webhooks/events/${delivery.webhook_event.id}/redeliver`, {}, z.null())
              .then(async () => {
                setError(null);
                setNote('Sent again; the new attempt appears at the top of the log.');
                await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
              })
              .catch((failure: Error) => setError(failure.message))
          }
        >
          Redeliver
        </button>
        <SuccessNote message={note} />
        <ErrorNote message={error} />
      </details>
    </li>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    ...webhookDeliveriesQuery(endpointId, page),
    refetchInterval: DELIVERY_REFRESH_MS,
  });
  const maxPage = Math.max(1, deliveries.data?.pagination.max_page ?? 1);
  return (
    <Card title="Delivery log">
      <ErrorNote message={deliveries.error?.message ?? null} />
      {deliveries.data?.items.length === 0 ? <p className="muted">Nothing delivered yet.</p> : null}
      <ul className="plain-list">
        {(deliveries.data?.items ?? []).map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} />
        ))}
      </ul>
      <p className="pager">
        <span>
          {deliveries.data?.pagination.total_count ?? 0} attempts · page {page} of {maxPage}
        </span>
        <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Newer
        </button>
        <button
          type="button"
          className="secondary"
          disabled={page >= maxPage}
          onClick={() => setPage(page + 1)}
        >
          Older
        </button>
      </p>
    </Card>
  );
}

function EndpointPage() {
  const { endpointId } = Route.useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const endpoint = useQuery(webhookEndpointQuery(endpointId));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  async function update(body: Record<string, unknown>, done: string) {
    try {
      const updated = await sendJson(
        'PATCH',
        `/v1/webhooks/endpoints/${endpointId}`,
        body,
        webhookEndpointSchema,
      );
      queryClient.setQueryData(webhookEndpointQuery(endpointId).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      setError(null);
      setSaved(done);
      return true;
    } catch (failure) {
      setError((failure as Error).message);
      setSaved(null);
      return false;
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    await update({ url: values.url, format: values.format, events: checkedEvents(form) }, 'Endpoint saved.');
  }

  async function rotateSecret() {
    const chosen = generateWebhookSecret();
    if (await update({ secret: chosen }, 'New signing secret in use.')) setSecret(chosen);
  }

  const data = endpoint.data;
  return (
    <>
      <p>
        <Link to="/dashboard/webhooks">← All endpoints</Link>
      </p>
      <ErrorNote message={endpoint.error?.message ?? null} />
      {data ? (
        <Card title={`Endpoint ${data.url}`}>
          <p>
            {data.enabled ? 'Enabled' : 'Disabled'} · created {formatDateTime(data.created_at)}
          </p>
          {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
          <form key={data.modified_at ?? data.created_at} onSubmit={onSubmit} className="stack" noValidate>
            <EndpointFields url={data.url} format={data.format} events={data.events} />
            <div className="button-row">
              <button type="submit">Save endpoint</button>
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void update(
                    { enabled: !data.enabled },
                    data.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.',
                  )
                }
              >
                {data.enabled ? 'Disable' : 'Enable'}
              </button>
              <ConfirmButton
                label="Rotate secret"
                question="Replace the signing secret? Receivers must use the new one."
                onConfirm={rotateSecret}
              />
              <ConfirmButton
                label="Delete endpoint"
                question="Delete this endpoint?"
                className="danger"
                onConfirm={() =>
                  deleteResource(`/v1/webhooks/endpoints/${endpointId}`)
                    .then(() => navigate({ to: '/dashboard/webhooks' }))
                    .catch((failure: Error) => setError(failure.message))
                }
              />
            </div>
          </form>
          <SuccessNote message={saved} />
          <ErrorNote message={error} />
        </Card>
      ) : null}
      <DeliveryLog endpointId={endpointId} />
    </>
  );
}
