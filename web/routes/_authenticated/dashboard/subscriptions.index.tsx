import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { formatMoney } from '../../../money/format';
import { Pager, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import {
  describeRenewal,
  describeSubscriptionPrice,
  monthlyAmount,
  SubscriptionStatusBadge,
} from '../../../subscriptions/format';
import { subscriptionsQuery } from '../../../subscriptions/queries';
import { PageTitle } from '../../../shell/page-title';

const FILTERS = { all: undefined, active: true, inactive: false } as const;
type Filter = keyof typeof FILTERS;

export const Route = createFileRoute('/_authenticated/dashboard/subscriptions/')({
  validateSearch: z.object({
    page: z.coerce.number().int().min(1).optional().catch(undefined),
    show: z.enum(['all', 'active', 'inactive']).optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1, show: search.show ?? 'all' }),
  loader: ({ context: { queryClient, organizationId }, deps: { page, show } }) => {
    if (organizationId)
      prefetch(queryClient, subscriptionsQuery(organizationId, { page, active: FILTERS[show] }));
  },
  component: SubscriptionsPage,
});

function SubscriptionsPage() {
  return (
    <>
      <PageTitle title="Subscriptions" />
      <SubscriptionsPageContent />
    </>
  );
}

function SubscriptionsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its subscriptions.</p>;
  return <Subscriptions organizationId={organizationId} />;
}

function Subscriptions({ organizationId }: { organizationId: string }) {
  const search = Route.useSearch();
  const page = search.page ?? 1;
  const show: Filter = search.show ?? 'all';
  const navigate = useNavigate({ from: Route.fullPath });
  const subscriptions = useQuery(subscriptionsQuery(organizationId, { page, active: FILTERS[show] }));
  return (
    <ResourceCard
      title="Subscriptions"
      toolbar={
        <label className="field">
          <span>Show</span>
          <select
            value={show}
            onChange={(event) =>
              void navigate({ search: { show: event.target.value as Filter, page: undefined } })
            }
          >
            <option value="all">All subscriptions</option>
            <option value="active">Active only</option>
            <option value="inactive">Ended, unpaid or incomplete</option>
          </select>
        </label>
      }
      error={subscriptions.error?.message ?? null}
      items={subscriptions.data?.items}
      count={{
        total: subscriptions.data?.pagination.total_count,
        one: 'subscription',
        other: 'subscriptions',
      }}
      empty={
        show === 'all' ? (
          <>
            No subscriptions yet. Give a product a monthly or yearly price in{' '}
            <Link to="/dashboard/products">Products</Link>, then share a checkout link to it.
          </>
        ) : (
          'No subscriptions match this filter.'
        )
      }
      footer={
        <Pager
          page={page}
          maxPage={subscriptions.data?.pagination.max_page ?? 1}
          onPage={(next) => void navigate({ search: { show: search.show, page: next } })}
        />
      }
    >
      <ResourceTable
        items={subscriptions.data?.items}
        rowTestId="subscription-row"
        columns={[
          {
            header: 'Status',
            cell: (subscription) => <SubscriptionStatusBadge subscription={subscription} />,
          },
          {
            header: 'Customer',
            cell: (subscription) => (
              <Link
                to="/dashboard/subscriptions/$subscriptionId"
                params={{ subscriptionId: subscription.id }}
                aria-label={`Subscription of ${subscription.customer.email} to ${subscription.product.name}`}
              >
                <Truncated text={subscription.customer.email} />
              </Link>
            ),
          },
          { header: 'Plan', cell: (subscription) => <Truncated text={subscription.product.name} /> },
          {
            header: 'Amount',
            testId: 'subscription-amount',
            cell: (subscription) => describeSubscriptionPrice(subscription),
          },
          {
            header: 'MRR',
            className: 'nowrap',
            testId: 'subscription-mrr',
            cell: (subscription) => formatMoney(monthlyAmount(subscription), subscription.currency),
          },
          {
            header: 'Next renewal',
            testId: 'subscription-renewal',
            cell: (subscription) => describeRenewal(subscription),
          },
        ]}
      />
    </ResourceCard>
  );
}
