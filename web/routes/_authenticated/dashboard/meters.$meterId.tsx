import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import type { Meter } from '../../../../domain/meters/schemas';
import { meterQuery } from '../../../catalog/queries';
import { Card, ErrorNote, formatDateTime, Pager, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import {
  DEFAULT_USAGE_RANGE,
  describeTotal,
  USAGE_RANGE_IDS,
  USAGE_RANGES,
  type UsageRange,
} from '../../../usage/format';
import { MeterChart } from '../../../usage/meter-chart';
import { meterCustomersQuery, meterQuantitiesQuery } from '../../../usage/queries';
import { describeAggregation, describeFilter } from './-components/meter-labels';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/meters/$meterId')({
  validateSearch: z.object({
    range: z.enum(USAGE_RANGE_IDS).optional().catch(undefined),
    page: z.coerce.number().int().min(1).optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => ({ range: search.range ?? DEFAULT_USAGE_RANGE, page: search.page ?? 1 }),
  loader: ({ context: { queryClient, organizationId }, params: { meterId }, deps: { range, page } }) => {
    prefetch(queryClient, meterQuery(meterId));
    prefetch(queryClient, meterQuantitiesQuery(meterId, range, new Date()));
    if (organizationId) prefetch(queryClient, meterCustomersQuery(organizationId, meterId, page));
  },
  component: MeterPage,
});

function MeterPage() {
  const { meterId } = Route.useParams();
  const meter = useQuery(meterQuery(meterId));
  return (
    <>
      <PageTitle title={meter.data?.name ?? 'Meter'} />
      <MeterPageContent />
    </>
  );
}

function MeterPageContent() {
  const { meterId } = Route.useParams();
  const { organizationId } = Route.useRouteContext();
  const meter = useQuery(meterQuery(meterId));
  return (
    <>
      <p>
        <Link to="/dashboard/meters">← All meters</Link>
      </p>
      {meter.error ? (
        <ErrorNote message={meter.error.message} />
      ) : !meter.data ? (
        <p>Loading…</p>
      ) : (
        <>
          <Card title="Details">
            <dl className="details" data-testid="meter-details">
              <dt>Counts events where</dt>
              <dd>{describeFilter(meter.data.filter)}</dd>
              <dt>Aggregation</dt>
              <dd>{describeAggregation(meter.data.aggregation)}</dd>
              <dt>Created</dt>
              <dd>{formatDateTime(meter.data.created_at)}</dd>
            </dl>
          </Card>
          <MeterUsage meter={meter.data} />
          {organizationId ? <MeterCustomers organizationId={organizationId} meterId={meterId} /> : null}
        </>
      )}
    </>
  );
}

function MeterUsage({ meter }: { meter: Meter }) {
  const search = Route.useSearch();
  const range = search.range ?? DEFAULT_USAGE_RANGE;
  const navigate = useNavigate({ from: Route.fullPath });
  const quantities = useQuery(meterQuantitiesQuery(meter.id, range, new Date()));
  const { label, interval } = USAGE_RANGES[range];
  const hasUsage = quantities.data?.quantities.some((bucket) => bucket.quantity !== 0) ?? false;
  return (
    <Card title="Usage">
      <label className="field">
        <span>Range</span>
        <select
          value={range}
          onChange={(event) =>
            void navigate({ search: { ...search, range: event.target.value as UsageRange } })
          }
        >
          {USAGE_RANGE_IDS.map((id) => (
            <option key={id} value={id}>
              {USAGE_RANGES[id].label}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote message={quantities.error?.message ?? null} />
      {!quantities.data ? (
        quantities.error ? null : (
          <p>Loading…</p>
        )
      ) : !hasUsage ? (
        <p className="muted" data-testid="meter-no-usage">
          No usage in this range.
        </p>
      ) : (
        <>
          <MeterChart
            quantities={quantities.data.quantities}
            interval={interval}
            title={`${meter.name}, ${label.toLowerCase()}`}
          />
          <p>
            Total over the range:{' '}
            <strong data-testid="meter-total">{quantities.data.total.toLocaleString()}</strong>
          </p>
          <p className="muted">{describeTotal(meter.aggregation)}</p>
        </>
      )}
    </Card>
  );
}

/** Each customer's use of the meter since its last reset, and what they were credited. */
function MeterCustomers({ organizationId, meterId }: { organizationId: string; meterId: string }) {
  const search = Route.useSearch();
  const page = search.page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const customerMeters = useQuery(meterCustomersQuery(organizationId, meterId, page));
  const maxPage = customerMeters.data?.pagination.max_page ?? 1;
  return (
    <ResourceCard
      title="Customers"
      error={customerMeters.error?.message ?? null}
      items={customerMeters.data?.items}
      empty="No customer has used this meter yet."
      footer={
        maxPage > 1 ? (
          <Pager
            page={page}
            maxPage={maxPage}
            onPage={(next) => void navigate({ search: { ...search, page: next } })}
          />
        ) : null
      }
    >
      <ResourceTable
        items={customerMeters.data?.items}
        rowTestId="customer-meter-row"
        columns={[
          {
            header: 'Customer',
            cell: (customerMeter) => (
              <Link to="/dashboard/customers/$customerId" params={{ customerId: customerMeter.customer_id }}>
                <Truncated text={customerMeter.customer.name ?? customerMeter.customer.email} />
              </Link>
            ),
          },
          {
            header: 'Consumed',
            testId: 'consumed-units',
            cell: (customerMeter) => customerMeter.consumed_units.toLocaleString(),
          },
          {
            header: 'Credited',
            testId: 'credited-units',
            cell: (customerMeter) => customerMeter.credited_units.toLocaleString(),
          },
          {
            header: 'Balance',
            testId: 'balance',
            cell: (customerMeter) => customerMeter.balance.toLocaleString(),
          },
        ]}
      />
    </ResourceCard>
  );
}
