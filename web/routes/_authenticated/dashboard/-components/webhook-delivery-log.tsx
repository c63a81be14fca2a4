import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { z } from 'zod';
import type { WebhookAttempt, WebhookEndpointEvent } from '../../../../../domain/webhooks/schemas';
import { sendJson } from '../../../../api';
import { ErrorNote, formatDateTime, Pager, SuccessNote, Truncated } from '../../../../components';
import { ResourceCard, ResourceList } from '../../../../resources/resource-page';
import { webhookEndpointEventsQuery } from '../../../../webhooks/queries';
import '../../../../webhooks/webhooks.css';

/** The worker delivers in the background: the log refreshes itself while the page is open. */
const DELIVERY_REFRESH_MS = 3_000;

const payloadSummarySchema = z.object({
  data: z.object({ id: z.string().optional(), name: z.string().optional() }).loose().optional(),
});

/** What an event is about ("Pro plan"), read from the body that was sent. */
function subjectOf(payload: string): string {
  try {
    const parsed = payloadSummarySchema.parse(JSON.parse(payload));
    return parsed.data?.name ?? parsed.data?.id ?? '';
  } catch {
    // Discord and Slack bodies are chat messages, not events.
    return '';
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function statusOf(event: WebhookEndpointEvent): { label: string; className: string } {
  if (event.status === 'succeeded') return { label: 'Succeeded', className: 'badge badge-ok' };
  if (event.status === 'failed') return { label: 'Failed', className: 'badge badge-error' };
  if (event.attempts.length === 0) return { label: 'Waiting', className: 'badge badge-neutral' };
  return { label: 'Retrying', className: 'badge badge-warn' };
}

function answerOf(attempt: WebhookAttempt): string {
  return attempt.http_code === null ? 'no answer' : String(attempt.http_code);
}

function AttemptsTable({ attempts }: { attempts: WebhookAttempt[] }) {
  return (
    <div className="data-table-scroll">
      <table className="data-table">
        <thead>
          <tr>
            <th>Attempt</th>
            <th>Sent</th>
            <th>Status code</th>
            <th>Duration</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt.id} data-testid="webhook-attempt">
              <td>
                {attempt.attempt}
                {attempt.redelivery ? ' (redelivery)' : ''}
              </td>
              <td>{formatDateTime(attempt.created_at)}</td>
              <td>{answerOf(attempt)}</td>
              <td>{attempt.duration_ms} ms</td>
              <td>{attempt.succeeded ? 'Delivered' : <Truncated text={attempt.error ?? 'Failed'} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EventRow({ event, canManage }: { event: WebhookEndpointEvent; canManage: boolean | null }) {
  const queryClient = useQueryClient();
  const detailId = useId();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const subject = subjectOf(event.payload);
  const status = statusOf(event);
  const lastAnswer = [...event.attempts].reverse().find((attempt) => attempt.response || attempt.error);
  return (
    <>
      <button
        type="button"
        className="secondary webhook-event-toggle"
        aria-expanded={open}
        aria-controls={detailId}
        onClick={() => setOpen(!open)}
      >
        <span className={status.className}>
          {status.label}
          {event.last_http_code === null ? '' : ` ${event.last_http_code}`}
        </span>
        <strong>{event.type}</strong>
        {event.test ? <span className="badge badge-neutral">Test</span> : null}
        {subject ? <Truncated text={subject} /> : null}
        <span>· {formatDateTime(event.created_at)}</span>
        <span>· {plural(event.attempts.length, 'attempt', 'attempts')}</span>
        {event.next_attempt_at ? (
          <span data-testid="webhook-next-retry">
            · next retry about {formatDateTime(event.next_attempt_at)}
          </span>
        ) : null}
      </button>
      {open ? (
        <div id={detailId} className="webhook-event-detail">
          {event.attempts.length > 0 ? (
            <AttemptsTable attempts={event.attempts} />
          ) : (
            <p className="muted">
              No attempt yet: the first is being made, or the event waits behind an earlier one about the same
              object.
            </p>
          )}
          <h3>Payload</h3>
          <pre className="message-text" data-testid="delivery-payload">
            {prettyJson(event.payload)}
          </pre>
          {lastAnswer ? (
            <>
              <h3>Last response (attempt {lastAnswer.attempt}, first 2 KB)</h3>
              {lastAnswer.error ? <p className="error-note">{lastAnswer.error}</p> : null}
              <pre className="message-text">{lastAnswer.response ?? '(empty)'}</pre>
            </>
          ) : null}
          {canManage ? (
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void sendJson('POST', `/v1/webhooks/events/${event.id}/redeliver`, {}, z.null())
                  .then(async () => {
                    setError(null);
                    setNote('Sent again; the new attempt is added to this event.');
                    await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
                  })
                  .catch((failure: Error) => setError(failure.message))
              }
            >
              Redeliver
            </button>
          ) : null}
          <SuccessNote message={note} />
          <ErrorNote message={error} />
        </div>
      ) : null}
    </>
  );
}

/** One row per event sent to the endpoint, newest first; a row opens on its attempts. */
export function WebhookDeliveryLog(props: { endpointId: string; canManage: boolean | null }) {
  const [page, setPage] = useState(1);
  const events = useQuery({
    ...webhookEndpointEventsQuery(props.endpointId, page),
    refetchInterval: DELIVERY_REFRESH_MS,
  });
  const total = events.data?.pagination.total_count ?? 0;
  return (
    <ResourceCard
      title="Delivery log"
      error={events.error?.message ?? null}
      items={events.data?.items}
      empty={
        'No deliveries yet. Events appear here as they happen in your organization; ' +
        '"Send test event" sends one now.'
      }
      footer={
        total > 0 ? (
          <>
            <p className="muted">{plural(total, 'event', 'events')}</p>
            <Pager page={page} maxPage={events.data?.pagination.max_page ?? 1} onPage={setPage} />
          </>
        ) : null
      }
    >
      <ResourceList items={events.data?.items} rowTestId="delivery-row" itemClassName="delivery">
        {(event) => <EventRow event={event} canManage={props.canManage} />}
      </ResourceList>
    </ResourceCard>
  );
}
