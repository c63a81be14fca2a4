import { useQuery } from '@tanstack/react-query';
import type { OrderTimelineEntry } from '../../../../../domain/orders/schemas';
import { formatMoney } from '../../../../money/format';
import { BRAND_NAMES } from '../../../../checkouts/card-brands';
import { orderTimelineQuery } from '../../../../orders/queries';
import { REFUND_REASON_LABELS } from '../../../../orders/status';
import { TimelineCard, type TimelineTone } from '../../../../sales/timeline';

/** Emails and webhooks still under way settle within seconds: the timeline reads again meanwhile. */
const TIMELINE_POLL_MS = 2_000;

const PAYMENT_OUTCOMES: Record<string, string> = {
  succeeded: 'Payment succeeded',
  failed: 'Payment failed',
  pending: 'Payment waiting for the buyer or the bank',
};

function describe(
  entry: OrderTimelineEntry,
  currency: string,
): { title: string; detail: string | null; tone: TimelineTone } {
  const money = (amount: number | null) => formatMoney(amount ?? 0, currency);
  switch (entry.type) {
    case 'order_created':
      return { title: 'Order created', detail: null, tone: 'quiet' };
    case 'payment_attempt': {
      const card = entry.card
        ? `${BRAND_NAMES[entry.card.brand as keyof typeof BRAND_NAMES] ?? entry.card.brand} ending in ${entry.card.last4}`
        : null;
      return {
        title: PAYMENT_OUTCOMES[entry.status ?? ''] ?? `Payment ${entry.status ?? ''}`.trim(),
        detail: [card, entry.detail].filter(Boolean).join(' · ') || null,
        tone: entry.status === 'failed' ? 'bad' : 'ok',
      };
    }
    case 'invoice_generated':
      return { title: `Invoice ${entry.reference ?? ''} generated`, detail: null, tone: 'quiet' };
    case 'refund_requested':
      return {
        title: `Refund of ${money(entry.amount)} requested`,
        detail: REFUND_REASON_LABELS[entry.detail as keyof typeof REFUND_REASON_LABELS] ?? entry.detail,
        tone: 'quiet',
      };
    case 'refund_succeeded':
      return { title: `Refund of ${money(entry.amount)} succeeded`, detail: null, tone: 'ok' };
    case 'refund_failed':
      return { title: `Refund of ${money(entry.amount)} failed`, detail: entry.detail, tone: 'bad' };
    case 'dispute_opened':
      return {
        title: `Payment of ${money(entry.amount)} disputed`,
        detail: entry.detail ? `Reason: ${entry.detail.replaceAll('_', ' ')}` : null,
        tone: 'bad',
      };
    case 'dispute_closed':
      return {
        title: `Dispute ${entry.status ?? ''}${entry.detail === 'accepted' ? ' (accepted)' : ''}`,
        detail: null,
        tone: entry.status === 'lost' ? 'bad' : 'ok',
      };
    case 'email_sent':
      return {
        title: `${entry.status === 'sent' ? 'Email sent' : 'Email being sent'}: ${entry.reference ?? ''}`,
        detail: entry.detail ? `To ${entry.detail}` : null,
        tone: 'quiet',
      };
    case 'webhook_event':
      return {
        title: `Webhook ${entry.reference ?? ''} ${entry.status === 'failed' ? 'failed' : entry.status === 'pending' ? 'being delivered' : 'delivered'}`,
        detail: entry.detail,
        tone: entry.status === 'failed' ? 'bad' : 'quiet',
      };
  }
}

/** What happened to the order, oldest first: payments, invoice, refunds, disputes, emails, webhooks. */
export function OrderTimeline({ orderId }: { orderId: string }) {
  const timeline = useQuery({
    ...orderTimelineQuery(orderId),
    refetchInterval: (query) =>
      query.state.data?.items.some((entry) => entry.status === 'pending') ? TIMELINE_POLL_MS : false,
  });
  return (
    <TimelineCard
      testId="order-timeline"
      label="Order timeline"
      timeline={timeline}
      describe={(entry, data) => {
        const { title, detail, tone } = describe(entry, data.currency);
        return {
          tone,
          content: (
            <>
              <span>{title}</span>
              {detail ? <span className="timeline-detail">{detail}</span> : null}
            </>
          ),
        };
      }}
    />
  );
}
