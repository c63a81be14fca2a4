import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { STUCK_WORK_COUNTED, STUCK_WORK_KINDS } from '../../../../domain/operators/stuck-work';
import { stuckWorkQuery } from '../../../admin/queries';
import { StuckKindCard } from '../../../admin/stuck-work-card';
import { Card, ErrorNote, formatDateTime } from '../../../components';
import { prefetch } from '../../../loaders';

export const Route = createFileRoute('/_authenticated/admin/stuck-work')({
  loader: ({ context }) => prefetch(context.queryClient, stuckWorkQuery),
  component: StuckWorkPage,
});

function StuckWorkPage() {
  const report = useQuery(stuckWorkQuery);
  const items = report.data?.items ?? [];
  const stuck = STUCK_WORK_KINDS.filter((kind) => items.some((item) => item.kind === kind));
  return (
    <section>
      <h1>Stuck work</h1>
      <p className="muted">
        Work that stopped moving, across every organization, found before a buyer or seller writes in.
        {report.data
          ? ` Checked ${formatDateTime(report.data.checked_at)}; refreshed every 30 seconds.`
          : null}
      </p>
      <ErrorNote message={report.error?.message ?? null} />
      {report.data ? (
        <Card title="Signals" testId="stuck-work-signals">
          <ul className="stuck-work-signals">
            {STUCK_WORK_KINDS.map((kind) => (
              <li key={kind} data-testid={`stuck-count-${kind}`}>
                <strong>{report.data.counts[kind]}</strong>{' '}
                {report.data.counts[kind] === 1
                  ? STUCK_WORK_COUNTED[kind].one
                  : STUCK_WORK_COUNTED[kind].other}{' '}
                <span className="muted">({report.data.thresholds[kind]})</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {report.data && items.length === 0 ? (
        <p className="muted empty-state">Nothing is stuck: every signal is below its threshold.</p>
      ) : null}
      {stuck.map((kind) => (
        <StuckKindCard key={kind} kind={kind} items={items.filter((item) => item.kind === kind)} />
      ))}
    </section>
  );
}
