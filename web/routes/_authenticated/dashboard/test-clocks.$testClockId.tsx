import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { TestClock } from '../../../../domain/test-clocks/schemas';
import { deleteResource } from '../../../api';
import { formatMoney } from '../../../money/format';
import { Card, ConfirmButton, ErrorNote, formatDateTime, Truncated } from '../../../components';
import { customerStateQuery } from '../../../customers/queries';
import { prefetch } from '../../../loaders';
import { BILLING_REASON_LABELS, OrderStatusBadge } from '../../../orders/status';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { describeRenewal, formatPlanAmount, SubscriptionStatusBadge } from '../../../subscriptions/format';
import { customerOrdersQuery, customerSubscriptionsQuery } from '../../../subscriptions/queries';
import { subscriptionWorkflowId } from '../../../../domain/subscriptions/rules';
import { WorkflowLink } from '../../../system/workflow-link';
import {
  MAX_CUSTOMERS_PER_TEST_CLOCK,
  TEST_CLOCK_POLL_MS,
  testClockQuery,
} from '../../../test-clocks/queries';
import { clockName, TestClockStatusBadge } from '../../../test-clocks/status';
import { TestClockAdvance } from './-components/test-clock-advance';
import { TestClockAttachForm } from './-components/test-clock-attach-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/test-clocks/$testClockId')({
  loader: ({ context: { queryClient }, params: { testClockId } }) => {
    prefetch(queryClient, testClockQuery(testClockId));
  },
  component: TestClockPage,
});

function TestClockPage() {
  const { testClockId } = Route.useParams();
  const clock = useQuery(testClockQuery(testClockId));
  return (
    <>
      <PageTitle title={clock.data ? clockName(clock.data) : 'Test clock'} />
      <TestClockPageContent />
    </>
  );
}

function TestClockPageContent() {
  const { testClockId } = Route.useParams();
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const queryClient = useQueryClient();
  const clock = useQuery({
    ...testClockQuery(testClockId),
    refetchInterval: (query) => (query.state.data?.status === 'advancing' ? TEST_CLOCK_POLL_MS : false),
  });
  const status = clock.data?.status;
  const previousStatus = useRef(status);
  useEffect(() => {
    // Once the plans have caught up, every page showing them reads them again.
    if (previousStatus.current === 'advancing' && status === 'ready') {
      void queryClient.invalidateQueries({ queryKey: ['subscriptions'] });
      void queryClient.invalidateQueries({ queryKey: ['subscription'] });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['customer-state'] });
      void queryClient.invalidateQueries({ queryKey: ['test-clocks'] });
    }
    previousStatus.current = status;
  }, [status, queryClient]);

  if (clock.error) return <ErrorNote message={clock.error.message} />;
  if (!clock.data) return <p>Loading…</p>;
  const data = clock.data;
  const isAdvancing = data.status === 'advancing';

  return (
    <>
      <p>
        <Link to="/dashboard/test-clocks">← All test clocks</Link>
      </p>
      <Card title="Details">
        <dl className="details" data-testid="test-clock-details">
          <dt>Time</dt>
          <dd data-testid="frozen-time">{formatDateTime(data.frozen_time)}</dd>
          <dt>Status</dt>
          <dd>
            <TestClockStatusBadge status={data.status} />
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(data.created_at)}</dd>
        </dl>
        {canManage ? <DeleteTestClock clock={data} /> : null}
      </Card>
      {canManage ? (
        <>
          <TestClockAdvance clock={data} />
          {data.customer_ids.length < MAX_CUSTOMERS_PER_TEST_CLOCK ? (
            <TestClockAttachForm clock={data} />
          ) : (
            <p className="muted">
              This clock holds {MAX_CUSTOMERS_PER_TEST_CLOCK} customers, its most; create another clock for
              more.
            </p>
          )}
        </>
      ) : canManage === false ? (
        <p className="muted">Only owners and admins can advance test clocks and attach customers.</p>
      ) : null}
      <Card title="Customers on this clock">
        {data.customer_ids.length === 0 ? (
          <p className="muted">No customers yet. Attach one, then sell them a plan through a checkout.</p>
        ) : (
          data.customer_ids.map((customerId) => (
            <ClockCustomer key={customerId} customerId={customerId} isAdvancing={isAdvancing} />
          ))
        )}
      </Card>
    </>
  );
}

/** A customer of the clock with their plans and latest orders, read again while the clock advances. */
function ClockCustomer({ customerId, isAdvancing }: { customerId: string; isAdvancing: boolean }) {
  const poll = isAdvancing ? TEST_CLOCK_POLL_MS : false;
  const customer = useQuery(customerStateQuery(customerId));
  const subscriptions = useQuery({ ...customerSubscriptionsQuery(customerId), refetchInterval: poll });
  const orders = useQuery({ ...customerOrdersQuery(customerId), refetchInterval: poll });
  const email = customer.data?.email ?? customerId;
  return (
    <section className="clock-customer" aria-label={`Customer ${email}`} data-testid="clock-customer">
      <h3>
        <Link to="/dashboard/customers/$customerId" params={{ customerId }}>
          <Truncated text={email} />
        </Link>
      </h3>
      <ErrorNote
        message={customer.error?.message ?? subscriptions.error?.message ?? orders.error?.message ?? null}
      />
      <h4>Subscriptions</h4>
      {subscriptions.data?.items.length === 0 ? <p className="muted">None yet.</p> : null}
      <ul className="plain-list">
        {subscriptions.data?.items.map((subscription) => (
          <li key={subscription.id} className="row" data-testid="clock-subscription-row">
            <Link to="/dashboard/subscriptions/$subscriptionId" params={{ subscriptionId: subscription.id }}>
              <Truncated text={subscription.product.name} />
            </Link>
            <SubscriptionStatusBadge subscription={subscription} />
            <span>
              {formatPlanAmount(
                subscription.amount,
                subscription.currency,
                subscription.recurring_interval,
                subscription.recurring_interval_count,
              )}
            </span>
            <span className="muted">{describeRenewal(subscription)}</span>
            <WorkflowLink workflowId={subscriptionWorkflowId(subscription.id)} />
          </li>
        ))}
      </ul>
      <h4>Latest orders</h4>
      {orders.data?.items.length === 0 ? <p className="muted">None yet.</p> : null}
      <ul className="plain-list">
        {orders.data?.items.map((order) => (
          <li key={order.id} className="row" data-testid="clock-order-row">
            <Link to="/dashboard/orders/$orderId" params={{ orderId: order.id }}>
              {formatDateTime(order.created_at)}
            </Link>
            <span data-testid="billing-reason">{BILLING_REASON_LABELS[order.billing_reason]}</span>
            <span>{formatMoney(order.total_amount, order.currency)}</span>
            <OrderStatusBadge status={order.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function DeleteTestClock({ clock }: { clock: TestClock }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    try {
      await deleteResource(`/v1/test-clocks/${clock.id}`);
      queryClient.removeQueries({ queryKey: testClockQuery(clock.id).queryKey });
      await queryClient.invalidateQueries({ queryKey: ['test-clocks', clock.organization_id] });
      await navigate({ to: '/dashboard/test-clocks' });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <>
      <div className="actions">
        <ConfirmButton
          label="Delete test clock"
          question="Delete this clock? Its customers go back to real time."
          onConfirm={remove}
        />
      </div>
      <ErrorNote message={error} />
    </>
  );
}
