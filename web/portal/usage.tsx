// The usage page's plans: for each plan of the buyer that renews with metered prices, the current
// period's usage per meter in money and the next invoice, as the API estimates the renewal.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { CustomerSubscription } from '../../domain/customer-portal/schemas';
import { usagePricesOf } from '../../domain/prices/registry';
import { ErrorNote, formatDate } from '../components';
import { formatPeriod, MeterUsageFacts, UpcomingInvoiceDetails } from '../subscriptions/upcoming-invoice';
import { portalRenewingSubscriptionsQuery, portalUpcomingInvoiceQuery } from './queries';
import './usage.css';

const isMetered = (subscription: CustomerSubscription) => usagePricesOf(subscription.prices).length > 0;

/** The buyer's renewing plans that have a metered price. */
export function useMeteredPlans(slug: string) {
  const plans = useQuery(portalRenewingSubscriptionsQuery(slug));
  return { ...plans, data: plans.data?.filter(isMetered) };
}

export function MeteredPlanUsage({
  slug,
  subscription,
}: {
  slug: string;
  subscription: CustomerSubscription;
}) {
  const estimate = useQuery(portalUpcomingInvoiceQuery(slug, subscription.id));
  const headingId = useId();
  const invoice = estimate.data;
  const meterCycle = subscription.current_meter_period_start !== null;
  return (
    <section
      className="portal-section portal-plan-usage"
      aria-labelledby={headingId}
      data-testid="portal-plan-usage"
    >
      <h2 id={headingId} className="wrap">
        {subscription.product.name}
      </h2>
      <ErrorNote message={estimate.error?.message ?? null} />
      {estimate.isPending ? <p role="status">Loading this period’s usage…</p> : null}
      {invoice ? (
        <>
          <p data-testid="usage-period">
            {meterCycle ? 'This usage cycle' : 'This period'}:{' '}
            <span className="nowrap">{formatPeriod(invoice.period_start, invoice.period_end)}</span>
          </p>
          {meterCycle ? (
            // A meter cycle of its own (meter_interval): usage is billed more often than the plan.
            <p data-testid="usage-cycle-note">
              Usage is billed at the end of each usage cycle, in an invoice of its own; the plan itself renews
              on <span className="nowrap">{formatDate(subscription.current_period_end)}</span>.
            </p>
          ) : null}
          <ul className="portal-list" aria-label={`Usage of ${subscription.product.name} this period`}>
            {invoice.meters.map((meter) => (
              <li key={meter.product_price_id} className="portal-item" data-testid="portal-meter-usage">
                <h3 className="wrap">{meter.meter_name}</h3>
                <MeterUsageFacts meter={meter} currency={invoice.currency} />
              </li>
            ))}
          </ul>
          <div className="portal-item" data-testid="portal-upcoming-invoice">
            <h3>Next invoice (estimate)</h3>
            <UpcomingInvoiceDetails invoice={invoice} />
          </div>
        </>
      ) : null}
    </section>
  );
}
