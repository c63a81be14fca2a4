import type { CheckoutStatus } from '../../domain/checkouts/schemas';
import type { Order, OrderStatus } from '../../domain/orders/schemas';
import type { Refund } from '../../domain/refunds/schemas';
import type { Dispute } from '../../domain/disputes/schemas';

type Tone = 'ok' | 'warn' | 'error' | 'neutral';

function Badge({ label, tone, testId }: { label: string; tone: Tone; testId: string }) {
  return (
    <span className={`badge badge-${tone}`} data-testid={testId}>
      {label}
    </span>
  );
}

const ORDER_STATUS: Record<OrderStatus, [string, Tone]> = {
  draft: ['Draft', 'neutral'],
  pending: ['Pending', 'warn'],
  paid: ['Paid', 'ok'],
  refunded: ['Refunded', 'neutral'],
  partially_refunded: ['Partially refunded', 'warn'],
};

const CHECKOUT_STATUS: Record<CheckoutStatus, [string, Tone]> = {
  open: ['Open', 'neutral'],
  expired: ['Expired', 'neutral'],
  confirmed: ['Confirmed', 'warn'],
  succeeded: ['Succeeded', 'ok'],
  failed: ['Failed', 'error'],
};

const REFUND_STATUS: Record<Refund['status'], [string, Tone]> = {
  pending: ['Pending', 'warn'],
  succeeded: ['Succeeded', 'ok'],
  failed: ['Failed', 'error'],
  canceled: ['Canceled', 'neutral'],
};

const DISPUTE_STATUS: Record<Dispute['status'], [string, Tone]> = {
  prevented: ['Prevented', 'neutral'],
  early_warning: ['Early warning', 'warn'],
  needs_response: ['Needs response', 'error'],
  under_review: ['Under review', 'warn'],
  lost: ['Lost', 'error'],
  won: ['Won', 'ok'],
};

export function DisputeStatusBadge({ status }: { status: Dispute['status'] }) {
  const [label, tone] = DISPUTE_STATUS[status];
  return <Badge label={label} tone={tone} testId="dispute-status" />;
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const [label, tone] = ORDER_STATUS[status];
  return <Badge label={label} tone={tone} testId="order-status" />;
}

export function CheckoutStatusBadge({ status }: { status: CheckoutStatus }) {
  const [label, tone] = CHECKOUT_STATUS[status];
  return <Badge label={label} tone={tone} testId="checkout-status" />;
}

export function RefundStatusBadge({ status }: { status: Refund['status'] }) {
  const [label, tone] = REFUND_STATUS[status];
  return <Badge label={label} tone={tone} testId="refund-status" />;
}

export const REFUND_REASON_LABELS: Record<Refund['reason'], string> = {
  duplicate: 'Duplicate',
  fraudulent: 'Fraudulent',
  customer_request: 'Customer request',
  service_disruption: 'Service disruption',
  satisfaction_guarantee: 'Satisfaction guarantee',
  other: 'Other',
};

/** Why an order was made, in the seller's words (a subscription's timeline reads as its history). */
export const BILLING_REASON_LABELS: Record<Order['billing_reason'], string> = {
  purchase: 'Purchase',
  subscription_create: 'First payment',
  subscription_cycle: 'Renewal',
  subscription_update: 'Plan change',
  subscription_meter_cycle: 'Usage (meter cycle)',
};

/** The words of each status, for filters. */
export const ORDER_STATUS_LABELS = Object.fromEntries(
  Object.entries(ORDER_STATUS).map(([status, [label]]) => [status, label]),
) as Record<OrderStatus, string>;

export const CHECKOUT_STATUS_LABELS = Object.fromEntries(
  Object.entries(CHECKOUT_STATUS).map(([status, [label]]) => [status, label]),
) as Record<CheckoutStatus, string>;

export const REFUND_STATUS_LABELS = Object.fromEntries(
  Object.entries(REFUND_STATUS).map(([status, [label]]) => [status, label]),
) as Record<Refund['status'], string>;
