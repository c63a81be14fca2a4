import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { CustomerTimelineEntry } from '../../../../../domain/customers/schemas';
import { formatMoney } from '../../../../money/format';
import { formatDate, Truncated } from '../../../../components';
import { customerTimelineQuery } from '../../../../customers/queries';
import { ORDER_STATUS_LABELS, REFUND_STATUS_LABELS } from '../../../../orders/status';
import { TimelineCard, type TimelineTone } from '../../../../sales/timeline';

function describe(entry: CustomerTimelineEntry): { title: string; tone: TimelineTone } {
  const money = entry.amount !== null && entry.currency ? formatMoney(entry.amount, entry.currency) : '';
  const name = entry.reference ?? '';
  switch (entry.type) {
    case 'customer_created':
      return { title: 'Became a customer', tone: 'quiet' };
    case 'order': {
      const status = ORDER_STATUS_LABELS[entry.status as keyof typeof ORDER_STATUS_LABELS] ?? entry.status;
      return {
        title: `Order of ${money} for ${name} · ${status}`,
        tone: entry.status === 'pending' ? 'quiet' : 'ok',
      };
    }
    case 'refund': {
      const status = REFUND_STATUS_LABELS[entry.status as keyof typeof REFUND_STATUS_LABELS] ?? entry.status;
      return { title: `Refund of ${money} · ${status}`, tone: entry.status === 'failed' ? 'bad' : 'quiet' };
    }
    case 'subscription_started':
      return { title: `Subscribed to ${name}`, tone: 'ok' };
    case 'subscription_changed':
      return { title: `Switched from ${entry.previous_reference ?? 'another plan'} to ${name}`, tone: 'ok' };
    case 'subscription_canceled':
      // Set to end at the period's end: the plan goes on until then.
      return entry.ends_at
        ? { title: `Set ${name} to end on ${formatDate(entry.ends_at)}`, tone: 'warn' }
        : { title: `Canceled ${name}`, tone: 'bad' };
    case 'subscription_ended':
      return { title: `${name} ended`, tone: 'quiet' };
    case 'benefit_granted':
      return { title: `Granted ${name}`, tone: 'ok' };
    case 'benefit_revoked':
      return { title: `Revoked ${name}`, tone: 'quiet' };
  }
}

/** The customer's story, newest first: orders, refunds, plans and benefits, each linking to its page. */
export function CustomerTimeline({ customerId }: { customerId: string }) {
  const timeline = useQuery(customerTimelineQuery(customerId));
  return (
    <TimelineCard
      testId="customer-timeline"
      label="Customer timeline"
      timeline={timeline}
      describe={(entry) => {
        const { title, tone } = describe(entry);
        return {
          tone,
          content: (
            <Truncated text={title}>
              {entry.order_id ? (
                <Link to="/dashboard/orders/$orderId" params={{ orderId: entry.order_id }}>
                  {title}
                </Link>
              ) : entry.subscription_id ? (
                <Link
                  to="/dashboard/subscriptions/$subscriptionId"
                  params={{ subscriptionId: entry.subscription_id }}
                >
                  {title}
                </Link>
              ) : (
                title
              )}
            </Truncated>
          ),
        };
      }}
    />
  );
}
