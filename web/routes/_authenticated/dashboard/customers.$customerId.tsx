import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Card, ErrorNote, formatDateTime, Truncated } from '../../../components';
import { customerStateQuery } from '../../../customers/queries';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { describeRenewal, formatPlanAmount, SubscriptionStatusBadge } from '../../../subscriptions/format';
import { customerSubscriptionsQuery } from '../../../subscriptions/queries';
import { CustomerEditForm } from './-components/customer-edit-form';

export const Route = createFileRoute('/_authenticated/dashboard/customers/$customerId')({
  loader: ({ context, params }) => {
    prefetch(context.queryClient, customerStateQuery(params.customerId));
    prefetch(context.queryClient, customerSubscriptionsQuery(params.customerId));
  },
  component: CustomerPage,
});

function CustomerPage() {
  const { customerId } = Route.useParams();
  const state = useQuery(customerStateQuery(customerId));
  if (state.error) return <ErrorNote message={state.error.message} />;
  if (!state.data) return <p>Loading…</p>;
  const customer = state.data;
  return (
    <>
      <Card title={customer.email}>
        <dl className="details">
          <dt>Name</dt>
          <dd>{customer.name ?? '—'}</dd>
          <dt>External ID</dt>
          <dd>{customer.external_id ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(customer.created_at)}</dd>
          <dt>Billing address</dt>
          <dd>
            {customer.billing_address
              ? [
                  customer.billing_address.line1,
                  customer.billing_address.postal_code,
                  customer.billing_address.city,
                  customer.billing_address.country,
                ]
                  .filter(Boolean)
                  .join(', ')
              : '—'}
          </dd>
          <dt>Tax ID</dt>
          <dd>{customer.tax_id ? `${customer.tax_id[0]} (${customer.tax_id[1]})` : '—'}</dd>
        </dl>
      </Card>
      <Card title="State">
        <h3>Active subscriptions</h3>
        <p className="muted">
          {customer.active_subscriptions.length === 0
            ? 'None.'
            : `${customer.active_subscriptions.length} active; every plan is listed under Subscriptions.`}
        </p>
        <h3>Granted benefits</h3>
        {customer.granted_benefits.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="plain-list" data-testid="granted-benefits">
            {customer.granted_benefits.map((grant) => (
              <li key={grant.id}>
                {grant.benefit_type} since {formatDateTime(grant.granted_at)}
              </li>
            ))}
          </ul>
        )}
        <h3>Active meters</h3>
        {customer.active_meters.length === 0 ? <p className="muted">None.</p> : null}
      </Card>
      <CustomerSubscriptions customerId={customer.id} />
      <CustomerEditForm customer={customer} />
    </>
  );
}

/** Every plan of the customer, ended ones too (the state above lists only active ones). */
function CustomerSubscriptions({ customerId }: { customerId: string }) {
  const subscriptions = useQuery(customerSubscriptionsQuery(customerId));
  return (
    <ResourceCard
      title="Subscriptions"
      error={subscriptions.error?.message ?? null}
      items={subscriptions.data?.items}
      empty="No subscriptions."
    >
      <ResourceTable
        items={subscriptions.data?.items}
        rowTestId="customer-subscription-row"
        columns={[
          {
            header: 'Plan',
            cell: (subscription) => (
              <Link
                to="/dashboard/subscriptions/$subscriptionId"
                params={{ subscriptionId: subscription.id }}
              >
                <Truncated text={subscription.product.name} />
              </Link>
            ),
          },
          {
            header: 'Status',
            cell: (subscription) => <SubscriptionStatusBadge status={subscription.status} />,
          },
          {
            header: 'Amount',
            cell: (subscription) =>
              formatPlanAmount(subscription.amount, subscription.currency, subscription.recurring_interval),
          },
          { header: 'Next renewal', cell: (subscription) => describeRenewal(subscription) },
        ]}
      />
    </ResourceCard>
  );
}
