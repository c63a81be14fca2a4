import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import type { WebhookDeliveryResponse } from '../../../../../domain/webhooks/schemas';
import { sendJson } from '../../../../api';
import { ErrorNote, formatDateTime, SuccessNote } from '../../../../components';
import { ResourceCard, ResourceList } from '../../../../resources/resource-page';
import { webhookDeliveriesQuery } from '../../../../webhooks/queries';

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
    <details>
      <summary>
        <span className={delivery.succeeded ? 'badge badge-ok' : 'badge badge-error'}>
          {status} {delivery.http_code ?? ''}
        </span>{' '}
        <strong>{type}</strong> {subject} · {formatDateTime(delivery.created_at)} · {delivery.duration_ms} ms
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
  );
}

export function WebhookDeliveryLog({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    ...webhookDeliveriesQuery(endpointId, page),
    refetchInterval: DELIVERY_REFRESH_MS,
  });
  const maxPage = Math.max(1, deliveries.data?.pagination.max_page ?? 1);
  return (
    <ResourceCard
      title="Delivery log"
      error={deliveries.error?.message ?? null}
      items={deliveries.data?.items}
      empty="Nothing delivered yet."
      footer={
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
      }
    >
      <ResourceList items={deliveries.data?.items} rowTestId="delivery-row" itemClassName="delivery">
        {(delivery) => <DeliveryRow delivery={delivery} />}
      </ResourceList>
    </ResourceCard>
  );
}
