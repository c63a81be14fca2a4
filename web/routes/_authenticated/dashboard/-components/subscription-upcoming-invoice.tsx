import { useQuery } from '@tanstack/react-query';
import type { Subscription } from '../../../../../domain/subscriptions/schemas';
import { Card, ErrorNote } from '../../../../components';
import { subscriptionUpcomingInvoiceQuery } from '../../../../subscriptions/queries';
import { UpcomingInvoiceDetails } from '../../../../subscriptions/upcoming-invoice';
import { SubscriptionUsage } from './subscription-usage';

/** The period's usage (for a plan with metered prices) and the next renewal's order, estimated. */
export function SubscriptionUpcomingInvoice({ subscription }: { subscription: Subscription }) {
  const upcoming = useQuery(subscriptionUpcomingInvoiceQuery(subscription));
  const invoice = upcoming.data;
  return (
    <>
      {invoice && invoice.meters.length > 0 ? <SubscriptionUsage invoice={invoice} /> : null}
      <Card title="Next invoice (estimate)" testId="subscription-upcoming-invoice">
        <ErrorNote message={upcoming.error?.message ?? null} />
        {upcoming.isPending ? <p role="status">Estimating the next invoice…</p> : null}
        {invoice ? <UpcomingInvoiceDetails invoice={invoice} /> : null}
      </Card>
    </>
  );
}
