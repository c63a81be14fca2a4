import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { customerGrantsQuery, GRANT_POLL_MS, type CustomerGrant } from '../../../benefit-grants/queries';
import { GrantSource } from '../../../benefit-grants/source';
import {
  GrantDetails,
  grantStatus,
  GrantStatusBadge,
  isGrantPending,
  summarizeGrants,
} from '../../../benefit-grants/status';
import { Card, ErrorNote, formatDateTime, Truncated } from '../../../components';
import { customerStateQuery, customerSummaryQuery, customerTimelineQuery } from '../../../customers/queries';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import {
  describeRenewal,
  describeSubscriptionPrice,
  SubscriptionStatusBadge,
} from '../../../subscriptions/format';
import { customerSubscriptionsQuery } from '../../../subscriptions/queries';
import { BENEFIT_TYPE_LABELS } from './-components/benefit-labels';
import { ChargeCustomer } from './-components/charge-customer';
import { CustomerEditForm } from './-components/customer-edit-form';
import { CustomerPaymentMethods } from './-components/customer-payment-methods';
import { CustomerOrders, CustomerSalesSummary } from './-components/customer-sales';
import { CustomerTimeline } from './-components/customer-timeline';
import { PageTitle } from '../../../shell/page-title';
import { useCanManageActiveOrganization } from '../../../organizations/roles';

export const Route = createFileRoute('/_authenticated/dashboard/customers/$customerId')({
  loader: ({ context, params }) => {
    prefetch(context.queryClient, customerStateQuery(params.customerId));
    prefetch(context.queryClient, customerSubscriptionsQuery(params.customerId));
    prefetch(context.queryClient, customerGrantsQuery(params.customerId));
    prefetch(context.queryClient, customerSummaryQuery(params.customerId));
    prefetch(context.queryClient, customerTimelineQuery(params.customerId));
  },
  component: CustomerPage,
});

function CustomerPage() {
  const { customerId } = Route.useParams();
  const customer = useQuery(customerStateQuery(customerId)).data;
  return (
    <>
      <PageTitle title={customer?.email ?? 'Customer'} />
      <CustomerPageContent />
    </>
  );
}

function CustomerPageContent() {
  const { customerId } = Route.useParams();
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const state = useQuery(customerStateQuery(customerId));
  if (state.error) return <ErrorNote message={state.error.message} />;
  if (!state.data) return <p>Loading…</p>;
  const customer = state.data;
  return (
    <>
      <Card title="Details">
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
        <p className="muted" data-testid="granted-benefits">
          {customer.granted_benefits.length === 0
            ? 'None.'
            : `${customer.granted_benefits.length} granted; every grant is listed under Benefits.`}
        </p>
        <h3>Active meters</h3>
        {customer.active_meters.length === 0 ? <p className="muted">None.</p> : null}
      </Card>
      <CustomerSalesSummary customerId={customer.id} />
      <CustomerTimeline customerId={customer.id} />
      <CustomerOrders organizationId={customer.organization_id} customerId={customer.id} />
      <CustomerSubscriptions customerId={customer.id} />
      <CustomerPaymentMethods customerId={customer.id} />
      <ChargeCustomer
        organizationId={customer.organization_id}
        customerId={customer.id}
        canManage={canManage}
      />
      <CustomerBenefits customerId={customer.id} />
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
            cell: (subscription) => <SubscriptionStatusBadge subscription={subscription} />,
          },
          { header: 'Amount', cell: (subscription) => describeSubscriptionPrice(subscription) },
          { header: 'Next renewal', cell: (subscription) => describeRenewal(subscription) },
        ]}
      />
    </ResourceCard>
  );
}

/**
 * The state card counts the granted benefits: whenever the grants the page shows change (the first
 * answer, or a workflow granting one while the page polled), the state is read again so both
 * cards tell the same. The first answer counts too: the state may have been read before it.
 */
function useStateFollowsGrants(customerId: string, grants: CustomerGrant[] | undefined) {
  const queryClient = useQueryClient();
  const statuses = grants?.map((grant) => `${grant.id}:${grantStatus(grant)}`).join(',');
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (statuses !== undefined && seen.current !== statuses) {
      void queryClient.invalidateQueries({ queryKey: customerStateQuery(customerId).queryKey });
    }
    seen.current = statuses;
  }, [queryClient, customerId, statuses]);
}

/** Every grant of the customer: held, revoked, and those waiting for them or failing. */
function CustomerBenefits({ customerId }: { customerId: string }) {
  const grants = useQuery({
    ...customerGrantsQuery(customerId),
    refetchInterval: (query) => (query.state.data?.some(isGrantPending) ? GRANT_POLL_MS : false),
  });
  useStateFollowsGrants(customerId, grants.data);
  return (
    <ResourceCard
      title="Benefits"
      error={grants.error?.message ?? null}
      items={grants.data}
      empty="No benefits granted to this customer yet."
      toolbar={
        grants.data && grants.data.length > 0 ? (
          <p className="muted" data-testid="grant-summary">
            {summarizeGrants(grants.data)}
          </p>
        ) : null
      }
    >
      <ResourceTable
        items={grants.data}
        rowTestId="customer-grant-row"
        columns={[
          {
            header: 'Benefit',
            cell: (grant) => (
              <>
                <Link to="/dashboard/benefits/$benefitId" params={{ benefitId: grant.benefit_id }}>
                  <Truncated text={grant.benefit.description} />
                </Link>
                <br />
                <span className="muted">{BENEFIT_TYPE_LABELS[grant.benefit.type]}</span>
              </>
            ),
          },
          { header: 'Status', cell: (grant) => <GrantStatusBadge grant={grant} /> },
          { header: 'Details', cell: (grant) => <GrantDetails grant={grant} type={grant.benefit.type} /> },
          { header: 'From', cell: (grant) => <GrantSource grant={grant} /> },
        ]}
      />
    </ResourceCard>
  );
}
