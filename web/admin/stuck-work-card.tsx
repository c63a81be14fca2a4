// One kind of stuck work on the operators' page: what to do about it, then each entry with its
// workflow (Temporal UI) and where the organization sees the entity.
import type { StuckWorkItem } from '../../domain/operators/schemas';
import { STUCK_WORK_ADVICE, STUCK_WORK_TITLES, type StuckWorkKind } from '../../domain/operators/stuck-work';
import { Card, formatDateTime, Truncated } from '../components';
import { WorkflowLink } from '../system/workflow-link';
import './stuck-work.css';

export function StuckKindCard({ kind, items }: { kind: StuckWorkKind; items: StuckWorkItem[] }) {
  return (
    <Card title={STUCK_WORK_TITLES[kind]} testId={`stuck-kind-${kind}`}>
      <p className="muted">{STUCK_WORK_ADVICE[kind]}</p>
      <ul className="stuck-work-items">
        {items.map((item) => (
          <li key={`${item.workflow_id ?? ''}:${item.summary}`} data-testid="stuck-item">
            <p className="stuck-work-summary">
              <strong>{item.summary}</strong>
            </p>
            <p className="muted">
              Since {formatDateTime(item.since)}
              {item.organization ? (
                <>
                  {' · '}
                  <Truncated text={item.organization.name} />
                </>
              ) : null}
            </p>
            {item.detail ? <p className="stuck-work-detail">{item.detail}</p> : null}
            <p className="stuck-work-links">
              {item.workflow_id ? <WorkflowLink workflowId={item.workflow_id} /> : null}
              {item.dashboard_url ? (
                <a href={item.dashboard_url} target="_blank" rel="noreferrer">
                  Open in the organization’s dashboard
                </a>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
