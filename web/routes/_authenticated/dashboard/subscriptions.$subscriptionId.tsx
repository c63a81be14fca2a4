import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { Subscription } from '../../../../domain/subscriptions/schemas';
import { subscriptionWorkflowId } from '../../../../domain/subscriptions/rules';
import { WorkflowLink } from '../../../system/workflow-link';
import { formatMoney } from '../../../money/format';
import { describeProductPricing } from '../../../catalog/format';
import { productsQuery } from '../../../catalog/queries';
import { Card, ConfirmButton, ErrorNote, formatDate, formatDateTime, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { BILLING_REASON_LABELS, OrderStatusBadge } from '../../../orders/status';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import { useSubscriptionChange } from '../../../subscriptions/changes';
import {
  CANCELLATION_REASON_LABELS,
  describeRenewal,
  describeSubscriptionPrice,
  hasEnded,
  isBillable,
  isResumable,
  seatsWords,
  SubscriptionStatusBadge,
} from '../../../subscriptions/format';
import {
  SUBSCRIPTION_POLL_MS,
  subscriptionOrdersQuery,
  subscriptionPaymentAttemptsQuery,
  subscriptionQuery,
} from '../../../subscriptions/queries';
import { SubscriptionCancelForm } from './-components/subscription-cancel-form';
import { SubscriptionDiscountForm } from './-components/subscription-discount-form';
import { SubscriptionSeatHolders } from './-components/subscription-seat-holders';
import { SubscriptionSeatsForm } from './-components/subscription-seats-form';
import { SubscriptionPlanChange } from './-components/subscription-plan-change';
import { SubscriptionUpcomingInvoice } from './-components/subscription-upcoming-invoice';
import { SubscriptionPause } from './-components/subscription-pause';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/subscriptions/$subscriptionId')({
  loader: ({ context: { queryClient }, params: { subscriptionId } }) => {
    prefetch(queryClient, subscriptionQuery(subscriptionId));
    prefetch(queryClient, subscriptionOrdersQuery(subscriptionId));
    prefetch(queryClient, subscriptionPaymentAttemptsQuery(subscriptionId));
  },
  component: SubscriptionPage,
});

function SubscriptionPage() {
  const { subscriptionId } = Route.useParams();
  const subscription = useQuery(subscriptionQuery(subscriptionId)).data;
  return (
    <>
      <PageTitle title={subscription ? `Subscription to ${subscription.product.name}` : 'Subscription'} />
      <SubscriptionPageContent />
    </>
  );
}

function SubscriptionPageContent() {
  const { subscriptionId } = Route.useParams();
  const { organizationId, session } = Route.useRouteContext();
  const canManage = useCanManageActiveOrganization(session.user.id);
  // The workflow charges a renewal or a plan change billed now a moment after it appears, and
  // may then move the plan to past due: both are read again until no order is pending.
  const orders = useQuery({
    ...subscriptionOrdersQuery(subscriptionId),
    refetchInterval: (query) =>
      query.state.data?.items.some((order) => order.status === 'pending') ? SUBSCRIPTION_POLL_MS : false,
  });
  const hasPendingOrder = orders.data?.items.some((order) => order.status === 'pending') ?? false;
  const subscription = useQuery({
    ...subscriptionQuery(subscriptionId),
    refetchInterval: hasPendingOrder ? SUBSCRIPTION_POLL_MS : false,
  });
  const attempts = useQuery({
    ...subscriptionPaymentAttemptsQuery(subscriptionId),
    refetchInterval: hasPendingOrder ? SUBSCRIPTION_POLL_MS : false,
  });
  if (subscription.error) return <ErrorNote message={subscription.error.message} />;
  if (!subscription.data) return <p>Loading…</p>;
  const data = subscription.data;

  return (
    <>
      <p>
        <Link to="/dashboard/subscriptions">← All subscriptions</Link>
      </p>
      <SubscriptionDetails subscription={data} organizationId={organizationId} />
      <SubscriptionPause subscription={data} canManage={canManage === true && Boolean(organizationId)} />
      <SubscriptionUpcomingInvoice subscription={data} />
      <SubscriptionSeatHolders subscription={data} canManage={canManage === true} />
      {canManage === false ? (
        <p className="muted">Only owners and admins can change subscriptions.</p>
      ) : canManage && isBillable(data) && organizationId ? (
        <>
          <SubscriptionActions subscription={data} />
          {data.cancel_at_period_end ? (
            <p className="muted">Resume the subscription to change its plan or discount.</p>
          ) : (
            <>
              <SubscriptionPlanChange subscription={data} organizationId={organizationId} />
              <SubscriptionSeatsForm subscription={data} />
              <SubscriptionDiscountForm subscription={data} organizationId={organizationId} />
            </>
          )}
        </>
      ) : null}
      <ResourceCard
        title="Orders"
        error={orders.error?.message ?? null}
        items={orders.data?.items}
        empty="No orders yet."
      >
        <ResourceList items={orders.data?.items} rowTestId="subscription-order-row" itemClassName="row">
          {(order) => (
            <>
              <Link to="/dashboard/orders/$orderId" params={{ orderId: order.id }}>
                {formatDateTime(order.created_at)}
              </Link>
              <span data-testid="billing-reason">{BILLING_REASON_LABELS[order.billing_reason]}</span>
              <span>{formatMoney(order.total_amount, order.currency)}</span>
              <OrderStatusBadge status={order.status} />
            </>
          )}
        </ResourceList>
      </ResourceCard>
      <ResourceCard
        title="Payment attempts"
        error={attempts.error?.message ?? null}
        items={attempts.data?.items}
        empty="No renewal or plan change has been charged yet."
      >
        {attempts.data?.next_attempt_at ? (
          <p data-testid="next-payment-attempt">
            Next try on {formatDateTime(attempts.data.next_attempt_at)}.
          </p>
        ) : null}
        <ResourceList items={attempts.data?.items} rowTestId="payment-attempt-row" itemClassName="row">
          {(attempt) => (
            <>
              <span>{formatDateTime(attempt.created_at)}</span>
              <span>Try {attempt.attempt}</span>
              <span>{attempt.status === 'succeeded' ? 'Paid' : 'Declined'}</span>
              {attempt.message ? <Truncated text={attempt.message} /> : null}
            </>
          )}
        </ResourceList>
      </ResourceCard>
    </>
  );
}

function SubscriptionDetails({
  subscription,
  organizationId,
}: {
  subscription: Subscription;
  organizationId: string | null;
}) {
  const cancellationReason = subscription.customer_cancellation_reason;
  // Every member reads what waits for the renewal; owners and admins cancel it in "Change plan".
  const products = useQuery({
    ...productsQuery(organizationId ?? '', false),
    enabled: organizationId !== null && subscription.pending_update !== null,
  });
  const pendingProduct = (products.data?.items ?? []).find(
    (product) => product.id === subscription.pending_update?.product_id,
  );
  const isPausing = subscription.status === 'paused' || subscription.pause_at_period_end;
  return (
    <Card title="Subscription">
      <dl className="details" data-testid="subscription-details">
        <dt>Status</dt>
        <dd>
          <SubscriptionStatusBadge subscription={subscription} />
        </dd>
        <dt>Customer</dt>
        <dd>
          <Link to="/dashboard/customers/$customerId" params={{ customerId: subscription.customer_id }}>
            <Truncated text={subscription.customer.email} />
          </Link>
        </dd>
        <dt>Plan</dt>
        <dd data-testid="subscription-plan">{subscription.product.name}</dd>
        <dt>Amount</dt>
        <dd data-testid="subscription-amount">{describeSubscriptionPrice(subscription)}</dd>
        {subscription.seats != null ? (
          <>
            <dt>Seats</dt>
            <dd data-testid="subscription-seats">{seatsWords(subscription.seats)}</dd>
          </>
        ) : null}
        <dt>Current period</dt>
        <dd>
          {formatDate(subscription.current_period_start)} – {formatDate(subscription.current_period_end)}
        </dd>
        <dt>Started</dt>
        <dd>{formatDateTime(subscription.started_at)}</dd>
        <dt>{hasEnded(subscription) || subscription.cancel_at_period_end ? 'End' : 'Next renewal'}</dt>
        <dd data-testid="subscription-renewal">
          {isPausing && !subscription.cancel_at_period_end
            ? subscription.resumes_at
              ? `When it resumes, on ${formatDate(subscription.resumes_at)}`
              : 'When it is resumed'
            : describeRenewal(subscription)}
        </dd>
        {subscription.pending_update ? (
          <>
            <dt>Waiting for the renewal</dt>
            <dd data-testid="subscription-pending-change">
              {pendingChangeWords(subscription, pendingProduct)} on{' '}
              {formatDate(subscription.pending_update.applies_at)}
            </dd>
          </>
        ) : null}
        {subscription.canceled_at ? (
          <>
            {/* Asked for, not done, while a plan set to end at its period's end still runs. */}
            <dt>{hasEnded(subscription) ? 'Canceled' : 'Cancellation asked'}</dt>
            <dd data-testid="subscription-cancellation">
              {formatDateTime(subscription.canceled_at)}
              {cancellationReason ? ` · ${CANCELLATION_REASON_LABELS[cancellationReason]}` : ''}
              {subscription.customer_cancellation_comment ? (
                <>
                  <br />
                  <span className="muted">“{subscription.customer_cancellation_comment}”</span>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        <dt>Discount</dt>
        <dd data-testid="subscription-discount">
          {subscription.discount
            ? subscription.discount.code
              ? `${subscription.discount.name} (${subscription.discount.code})`
              : subscription.discount.name
            : 'None'}
        </dd>
      </dl>
      <WorkflowLink workflowId={subscriptionWorkflowId(subscription.id)} />
    </Card>
  );
}

/** Cancel at period end, resume, revoke: each offered only while the API would take it. */
function SubscriptionActions({ subscription }: { subscription: Subscription }) {
  const change = useSubscriptionChange(subscription.id);
  const [isCancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(update: Parameters<typeof change>[0]) {
    try {
      await change(update);
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <Card title="Manage subscription">
      {isCancelling ? (
        <SubscriptionCancelForm subscription={subscription} onClose={() => setCancelling(false)} />
      ) : (
        <div className="actions">
          {!subscription.cancel_at_period_end ? (
            <button type="button" className="secondary" onClick={() => setCancelling(true)}>
              Cancel at period end
            </button>
          ) : isResumable(subscription) ? (
            <button type="button" onClick={() => void run({ cancel_at_period_end: false })}>
              Resume
            </button>
          ) : null}
          <ConfirmButton
            label="Revoke now"
            question="End the subscription now? Nothing is refunded and nothing more is charged."
            onConfirm={() => run({ revoke: true })}
          />
        </div>
      )}
      <ErrorNote message={error} />
    </Card>
  );
}

/** What the pending update changes: only the seats, or the plan (with the seats it will hold). */
function pendingChangeWords(
  subscription: Subscription,
  pendingProduct: (Parameters<typeof describeProductPricing>[0] & { name: string }) | undefined,
): string {
  const pending = subscription.pending_update!;
  const seats = pending.seats ?? null;
  if (pending.product_id === subscription.product_id && seats !== null)
    return `Changes to ${seatsWords(seats)}`;
  const plan = pendingProduct?.name ?? 'another plan';
  if (seats !== null) return `Changes to ${plan} (${seatsWords(seats)})`;
  return `Changes to ${plan}${pendingProduct ? ` (${describeProductPricing(pendingProduct)} from then)` : ''}`;
}
