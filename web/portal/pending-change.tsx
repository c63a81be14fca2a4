import type { CustomerProduct, CustomerSubscription } from '../../domain/customer-portal/schemas';
import { formatDate } from '../components';
import { seatsWords } from '../subscriptions/format';
import { describeProductPrice } from './format';

/** The change waiting for the period's end, in the buyer's words, with a way to cancel it. */
export function PendingChange(props: {
  pending: NonNullable<CustomerSubscription['pending_update']>;
  current: CustomerSubscription;
  products: CustomerProduct[];
  isBusy: boolean;
  onCancel: () => void;
}) {
  const { pending } = props;
  const seats = pending.seats ?? null;
  // Only the seats change: the plan stays, at the seats' own price from then.
  if (pending.product_id === props.current.product_id && seats !== null) {
    return (
      <div className="stack" data-testid="pending-change">
        <p>
          Changes to <strong>{seatsWords(seats)}</strong> on {formatDate(pending.applies_at)}.
        </p>
        <CancelPendingButton isBusy={props.isBusy} onCancel={props.onCancel} />
      </div>
    );
  }
  const product = props.products.find((each) => each.id === pending.product_id);
  return (
    <div className="stack" data-testid="pending-change">
      <p>
        Changes to {product ? <strong className="wrap">{product.name}</strong> : 'another plan'}
        {seats !== null ? ` (${seatsWords(seats)})` : ''} on {formatDate(pending.applies_at)}
        {product && seats === null ? (
          <span className="muted"> ({describeProductPrice(product)} from then)</span>
        ) : null}
        .
      </p>
      <CancelPendingButton isBusy={props.isBusy} onCancel={props.onCancel} />
    </div>
  );
}

function CancelPendingButton(props: { isBusy: boolean; onCancel: () => void }) {
  return (
    <div className="button-row wrap-row">
      <button type="button" className="secondary" disabled={props.isBusy} onClick={props.onCancel}>
        {props.isBusy ? 'Cancelling…' : 'Cancel this change'}
      </button>
    </div>
  );
}
