import { Link } from '@tanstack/react-router';
import type { Subscription } from '../../../../../domain/subscriptions/schemas';
import { formatMoney } from '../../../../checkouts/money';
import { Card, Truncated } from '../../../../components';
import { ResourceTable } from '../../../../resources/resource-page';

/** The metered prices' current period: what its end would bill so far (`subscription.meters`). */
export function SubscriptionUsage({ subscription }: { subscription: Subscription }) {
  const { currency, meters } = subscription;
  // Each amount is already rounded on its own line, as the renewal order bills it.
  const total = meters.reduce((sum, meter) => sum + meter.amount, 0);
  return (
    <Card title="Usage this period" testId="subscription-usage">
      <p className="muted">
        Usage is billed at the end of the period on the renewal order, credited units are taken off first, and
        these figures refresh within seconds of new usage.
      </p>
      <ResourceTable
        items={meters}
        rowTestId="subscription-usage-row"
        columns={[
          {
            header: 'Meter',
            cell: (meter) => (
              <Link to="/dashboard/meters/$meterId" params={{ meterId: meter.meter_id }}>
                <Truncated text={meter.meter.name} />
              </Link>
            ),
          },
          {
            header: 'Units used',
            testId: 'usage-consumed',
            cell: (meter) => meter.consumed_units.toLocaleString(),
          },
          {
            header: 'Units credited',
            testId: 'usage-credited',
            cell: (meter) => meter.credited_units.toLocaleString(),
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
