import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import type { CheckoutLink } from '../../../../domain/checkout-links/schemas';
import { describeDiscountTerms, productChoiceLabel } from '../../../catalog/format';
import { formatMoney } from '../../../money/format';
import { checkoutLinkQuery, checkoutLinkStatsQuery, checkoutsQuery } from '../../../checkouts/queries';
import { Card, ErrorNote, formatDateTime, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { CheckoutStatusBadge } from '../../../orders/status';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { CHECKOUT_BUYER_COLUMNS } from '../../../sales/checkout-columns';
import { countOf } from '../../../sales/format';
import { EmptyHint } from '../../../sales/list-controls';
import { CheckoutLinkForm } from './-components/checkout-link-form';
import { CopyUrl, linkName } from './-components/checkout-link-url';
import { PageTitle } from '../../../shell/page-title';

/** The latest checkouts of the link: its first page, newest first. */
const recentCheckouts = (linkId: string) => ({ checkoutLinkId: linkId, sorting: '-created_at' });

export const Route = createFileRoute('/_authenticated/dashboard/checkout-links/$linkId')({
  loader: ({ context: { queryClient, organizationId }, params: { linkId } }) => {
    prefetch(queryClient, checkoutLinkQuery(linkId));
    prefetch(queryClient, checkoutLinkStatsQuery(linkId));
    if (organizationId) {
      prefetch(queryClient, checkoutsQuery(organizationId, 1, recentCheckouts(linkId)));
    }
  },
  component: CheckoutLinkPage,
});

function CheckoutLinkPage() {
  const { linkId } = Route.useParams();
  const link = useQuery(checkoutLinkQuery(linkId));
  return (
    <>
      <PageTitle title={link.data ? linkName(link.data) : 'Checkout link'} />
      <CheckoutLinkPageContent />
    </>
  );
}

function CheckoutLinkPageContent() {
  const { linkId } = Route.useParams();
  const { organizationId, session } = Route.useRouteContext();
  const canManage = useCanManageActiveOrganization(session.user.id);
  const queryClient = useQueryClient();
  const link = useQuery(checkoutLinkQuery(linkId));
  if (link.error) return <ErrorNote message={link.error.message} />;
  if (!link.data) return <p>Loading…</p>;
  const data = link.data;
  const onSaved = (saved: CheckoutLink) => {
    queryClient.setQueryData(checkoutLinkQuery(linkId).queryKey, saved);
  };
  return (
    <>
      <p>
        <Link to="/dashboard/checkout-links">← All checkout links</Link>
      </p>
      <Card title="Details" testId="checkout-link-details">
        <dl className="details">
          <dt>URL</dt>
          <dd>
            <code className="wrap">{data.url}</code> <CopyUrl url={data.url} />
          </dd>
          <dt>Products</dt>
          <dd>
            <ul className="plain-list" data-testid="checkout-link-products">
              {data.products.map((product) => (
                <li key={product.id}>
                  <Truncated text={productChoiceLabel(product)} />
                </li>
              ))}
            </ul>
          </dd>
          <dt>Discount</dt>
          <dd data-testid="checkout-link-discount">
            {data.discount ? (
              <>
                <Truncated
                  text={
                    data.discount.code ? `${data.discount.name} (${data.discount.code})` : data.discount.name
                  }
                />
                <br />
                <span className="muted">{describeDiscountTerms(data.discount)}</span>
              </>
            ) : (
              'None'
            )}
          </dd>
          <dt>Success URL</dt>
          <dd>{data.success_url ? <Truncated text={data.success_url} /> : 'The checkout’s own page'}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(data.created_at)}</dd>
        </dl>
      </Card>
      <LinkStats linkId={linkId} />
      {organizationId ? <RecentCheckouts organizationId={organizationId} linkId={linkId} /> : null}
      {canManage === true ? (
        <CheckoutLinkForm organizationId={data.organization_id} link={data} onSaved={onSaved} />
      ) : canManage === false ? (
        <p className="muted">Only owners and admins of the organization can edit this link.</p>
      ) : null}
    </>
  );
}

function LinkStats({ linkId }: { linkId: string }) {
  const stats = useQuery(checkoutLinkStatsQuery(linkId));
  const data = stats.data;
  return (
    <Card title="Performance" testId="checkout-link-stats">
      <ErrorNote message={stats.error?.message ?? null} />
      {data ? (
        <dl className="stat-grid">
          <div>
            <dt>Visits</dt>
            <dd data-testid="link-visits">{data.visits.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Conversions</dt>
            <dd data-testid="link-conversions">{data.conversions.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Conversion rate</dt>
            <dd data-testid="link-conversion-rate">
              {data.visits === 0 ? '—' : `${(data.conversion_rate * 100).toFixed(1)} %`}
            </dd>
          </div>
          <div>
            <dt>Revenue</dt>
            <dd data-testid="link-revenue">
              {data.revenue.length === 0
                ? '—'
                : data.revenue.map((sum) => formatMoney(sum.amount, sum.currency)).join(' · ')}
            </dd>
          </div>
        </dl>
      ) : null}
      <p className="muted">
        A visit is a checkout opened from the link; a conversion, one that was paid. Revenue is the net amount
        of their orders less refunds, before tax.
      </p>
    </Card>
  );
}

function RecentCheckouts({ organizationId, linkId }: { organizationId: string; linkId: string }) {
  const checkouts = useQuery(checkoutsQuery(organizationId, 1, recentCheckouts(linkId)));
  const total = checkouts.data?.pagination.total_count;
  return (
    <ResourceCard
      title="Recent checkouts"
      error={checkouts.error?.message ?? null}
      items={checkouts.data?.items}
    >
      {total !== undefined ? <p className="muted">{countOf(total, 'checkout')} from this link</p> : null}
      {checkouts.data?.items.length === 0 ? (
        <EmptyHint>No visits yet. Share the link’s URL: each visit opens a checkout.</EmptyHint>
      ) : null}
      <ResourceTable
        items={checkouts.data?.items}
        rowTestId="link-checkout-row"
        columns={[
          { header: 'Created', className: 'nowrap', cell: (checkout) => formatDateTime(checkout.created_at) },
          { header: 'Status', cell: (checkout) => <CheckoutStatusBadge status={checkout.status} /> },
          ...CHECKOUT_BUYER_COLUMNS,
        ]}
      />
    </ResourceCard>
  );
}
