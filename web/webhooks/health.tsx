import type { WebhookEndpointHealth } from '../../domain/webhooks/schemas';
import { DISABLED_CAUSE_TEXT, type EndpointHealthStatus } from '../../domain/webhooks/rules';
import { Card, formatDateTime } from '../components';
import './webhooks.css';

const STATUS_LABELS: Record<EndpointHealthStatus, string> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  failing: 'Failing',
  idle: 'No recent deliveries',
  disabled: 'Disabled',
};

const STATUS_CLASSES: Record<EndpointHealthStatus, string> = {
  healthy: 'badge badge-ok',
  degraded: 'badge badge-warn',
  failing: 'badge badge-error',
  idle: 'badge badge-neutral',
  disabled: 'badge badge-error',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "97 % of 120 attempts": the success rate of the health window, or that there were none. */
export function shortSuccessSummary(health: WebhookEndpointHealth): string {
  if (health.success_rate === null) return 'no attempts';
  // Rounded down, so that one failure among many never shows as 100 %.
  const percent = Math.floor(health.success_rate * 1000) / 10;
  return `${percent} % of ${plural(health.attempts, 'attempt', 'attempts')}`;
}

/** "97 % of 120 attempts succeeded in the last 7 days", or that there were none. */
export function successSummary(health: WebhookEndpointHealth): string {
  const window = `in the last ${plural(health.window_days, 'day', 'days')}`;
  if (health.success_rate === null) return `No attempts ${window}`;
  return `${shortSuccessSummary(health)} succeeded ${window}`;
}

export function HealthBadge({ health }: { health: WebhookEndpointHealth }) {
  return (
    <span className={`${STATUS_CLASSES[health.status]} webhook-health-badge`} title={successSummary(health)}>
      {STATUS_LABELS[health.status]}
    </span>
  );
}

function describeFailure(failure: NonNullable<WebhookEndpointHealth['last_failure']>): string {
  const answer = failure.http_code === null ? 'no answer' : `HTTP ${failure.http_code}`;
  return failure.error ? `${answer}: ${failure.error}` : answer;
}

/** The endpoint page's summary: rate, last failure, the failure streak and why it is disabled. */
export function EndpointHealthCard({ health }: { health: WebhookEndpointHealth }) {
  return (
    <Card title="Health" testId="webhook-health">
      <p>
        <HealthBadge health={health} /> {successSummary(health)}.
      </p>
      <dl className="webhook-health-facts">
        <dt>Last failure</dt>
        <dd data-testid="webhook-last-failure">
          {health.last_failure
            ? `${formatDateTime(health.last_failure.at)} · ${describeFailure(health.last_failure)}`
            : 'None'}
        </dd>
        <dt>Failed events in a row</dt>
        <dd>
          {health.consecutive_failed_events} of {health.failed_events_to_disable} (at{' '}
          {health.failed_events_to_disable} the endpoint is disabled)
        </dd>
      </dl>
      {health.disabled_reason ? (
        <p className="notice" role="status" data-testid="webhook-disabled-reason">
          Disabled {health.disabled_at ? `on ${formatDateTime(health.disabled_at)} ` : ''}because{' '}
          {DISABLED_CAUSE_TEXT[health.disabled_reason]}. Fix the receiver, then enable the endpoint again;
          events that happened meanwhile are not sent.
        </p>
      ) : null}
    </Card>
  );
}
