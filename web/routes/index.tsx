import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { ReadinessCheck, ReadinessChecks } from '../../domain/system/schemas';
import { readinessQuery, settingsQuery } from '../system/queries';

export const Route = createFileRoute('/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(readinessQuery),
  component: SystemStatusPage,
});

const CHECK_LABELS: Record<keyof ReadinessChecks, string> = {
  postgres: 'PostgreSQL',
  temporal: 'Temporal server',
  worker: 'Temporal worker',
};

function CheckRow({ name, check }: { name: keyof ReadinessChecks; check: ReadinessCheck }) {
  return (
    <li className="check" data-check={name} data-status={check.status}>
      <span className={`dot dot-${check.status}`} aria-hidden="true" />
      <span className="check-name">{CHECK_LABELS[name]}</span>
      <span className="check-state">{check.status === 'ok' ? 'Operational' : 'Failing'}</span>
      <span className="check-duration">{check.duration_ms} ms</span>
      {check.detail ? <p className="check-detail">{check.detail}</p> : null}
    </li>
  );
}

function SystemStatusPage() {
  const readiness = useQuery(readinessQuery);
  const settings = useQuery(settingsQuery);

  if (readiness.isError) {
    return (
      <section>
        <h1>System status</h1>
        <p className="summary summary-error" role="alert">
          The API did not answer: {readiness.error.message}
        </p>
      </section>
    );
  }
  const report = readiness.data;
  if (!report) return <p>Checking…</p>;

  return (
    <section aria-labelledby="status-heading">
      <h1 id="status-heading">System status</h1>
      <p
        className={`summary summary-${report.status}`}
        data-testid="status-summary"
        data-status={report.status}
      >
        {report.status === 'ok' ? 'All systems operational' : 'Some systems are failing'}
      </p>
      <ul className="checks">
        {(Object.keys(CHECK_LABELS) as (keyof ReadinessChecks)[]).map((name) => (
          <CheckRow key={name} name={name} check={report.checks[name]} />
        ))}
      </ul>
      <p className="checked-at">Checked at {new Date(report.checked_at).toLocaleTimeString()}</p>
      {settings.data?.temporal_ui_url ? (
        <p>
          Workflows: <a href={settings.data.temporal_ui_url}>Temporal UI</a>
        </p>
      ) : null}
    </section>
  );
}
