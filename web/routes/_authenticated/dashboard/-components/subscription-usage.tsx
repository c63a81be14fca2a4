import { Link } from '@tanstack/react-router';
import type { UpcomingInvoice } from '../../../../../domain/subscriptions/schemas';
import { formatMoney } from '../../../../money/format';
import { Card, Truncated } from '../../../../components';
import { formatUnits } from '../../../../portal/format';
import { ResourceTable } from '../../../../resources/resource-page';
import { formatPeriod } from '../../../../subscriptions/upcoming-invoice';
import { describeMeteredCharge } from '../../../../subscriptions/usage-format';

/**
 * The metered prices' current period so far, from the upcoming-invoice estimate: what the period's
 * end would bill if no more usage came, computed by the renewal's own pricing.
 */
export function SubscriptionUsage({ invoice }: { invoice: UpcomingInvoice }) {
  const { currency, meters } = invoice;
  // Each amount is already rounded and capped on its own line, as the renewal order bills it.
  const total = meters.reduce((sum, meter) => sum + meter.amount, 0);
  return (
    <Card title="Usage this period" testId="subscription-usage">
      <p className="muted">
        {formatPeriod(invoice.period_start, invoice.period_end)}. Usage is billed at the end of the period on
        the renewal order, credited units are taken off first, and these figures are what that order would
        bill for the usage so far.
      </p>
      <ResourceTable
        items={meters.map((meter) => ({ ...meter, id: meter.product_price_id }))}
        rowTestId="subscription-usage-row"
        columns={[
          {
            header: 'Meter',
            cell: (meter) => (
              <Link to="/dashboard/meters/$meterId" params={{ meterId: meter.meter_id }}>
                <Truncated text={meter.meter_name} />
              </Link>
            ),
          },
          {
            header: 'Units used',
            testId: 'usage-consumed',
            cell: (meter) => formatUnits(meter.consumed_units),
          },
          {
            header: 'Units credited',
            testId: 'usage-credited',
            cell: (meter) => formatUnits(meter.credited_units),
          },
          {
            header: 'Price',
            testId: 'usage-price',
            cell: (meter) => describeMeteredCharge(meter, currency),
          },
          {
            header: 'Amount so far',
            testId: 'usage-amount',
            cell: (meter) => formatMoney(meter.amount, currency),
          },
        ]}
      />
      <p>
        Total so far: <strong data-testid="subscription-usage-total">{formatMoney(total, currency)}</strong>
      </p>
    </Card>
  );
}
