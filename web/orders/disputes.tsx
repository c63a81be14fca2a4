import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { disputeSchema, type Dispute } from '../../domain/disputes/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson, sendJson } from '../api';
import { Card, ErrorNote, formatDateTime } from '../components';
import { formatMoney } from '../money/format';
import { DisputeStatusBadge } from './status';

/** A dispute opens from the processor's event a few seconds after it is filed: an open page asks again. */
const DISPUTE_POLL_MS = 2_000;

export const orderDisputesQuery = (orderId: string) =>
  queryOptions({
    queryKey: ['order', orderId, 'disputes'],
    queryFn: () => getJson(`/v1/disputes/?order_id=${orderId}&limit=10`, listResourceSchema(disputeSchema)),
  });

const isOpen = (dispute: Dispute) => !dispute.closed;

/**
 * The order's chargebacks, when it has any: what is disputed, why, by when the evidence is due, and
 * for owners and admins (the API refuses members) the one thing Tollgate does with the processor:
 * accept, which concedes the money.
 */
export function OrderDisputes({ orderId, canManage }: { orderId: string; canManage: boolean | null }) {
  const disputes = useQuery({
    ...orderDisputesQuery(orderId),
    refetchInterval: (query) => (query.state.data?.items.some(isOpen) ? DISPUTE_POLL_MS : false),
  });
  const items = disputes.data?.items ?? [];
  if (disputes.error) return <ErrorNote message={disputes.error.message} />;
  if (items.length === 0) return null;
  return (
    <Card title="Disputes" testId="order-disputes">
      <ul className="plain-list">
        {items.map((dispute) => (
          <li key={dispute.id} data-testid="dispute">
            <p>
              <DisputeStatusBadge status={dispute.status} />{' '}
              {formatMoney(dispute.amount + dispute.tax_amount, dispute.currency)} disputed on{' '}
              {formatDateTime(dispute.created_at)}
              {dispute.reason ? ` · Reason: ${dispute.reason.replaceAll('_', ' ')}` : ''}
            </p>
            {isOpen(dispute) && dispute.evidence_due_by ? (
              <p className={dispute.past_due ? 'field-error' : 'muted'}>
                {dispute.past_due ? 'Evidence was due by ' : 'Evidence is due by '}
                {formatDateTime(dispute.evidence_due_by)}, in your payment processor&apos;s dashboard.
              </p>
            ) : null}
            {isOpen(dispute) && canManage ? <AcceptDispute dispute={dispute} /> : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function AcceptDispute({ dispute }: { dispute: Dispute }) {
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const amount = formatMoney(dispute.amount + dispute.tax_amount, dispute.currency);

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      await sendJson('POST', `/v1/disputes/${dispute.id}/accept`, {}, disputeSchema);
      dialog.current?.close();
      await queryClient.invalidateQueries({ queryKey: ['order', dispute.order_id] });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        Accept dispute
      </button>
      <dialog ref={dialog} aria-labelledby={`accept-${dispute.id}`} className="dialog">
        <div className="stack">
          <h2 id={`accept-${dispute.id}`}>Accept this dispute?</h2>
          <p>
            The buyer&apos;s bank keeps the {amount}, and the dispute closes as lost. Do this when you will
            not contest it; it cannot be undone.
          </p>
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="actions">
            <button type="button" className="danger" disabled={isBusy} onClick={() => void accept()}>
              {isBusy ? 'Accepting…' : `Accept and lose ${amount}`}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Keep it open
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
