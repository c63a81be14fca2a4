import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import type { CustomerSubscription } from '../../domain/customer-portal/schemas';
import { ErrorNote, formatDate } from '../components';
import { hasEnded } from '../subscriptions/format';
import { portalClaimedSeatsQuery } from './queries';
import { SubscriptionItemHead } from './subscriptions';

/** Where a seat someone gave stands: the holder pays nothing, so only its access dates matter. */
function describeAccess(subscription: CustomerSubscription): string {
  if (hasEnded(subscription)) return 'Your seat has ended';
  if (subscription.status === 'paused') return 'Paused by the person who pays for it';
  if (subscription.cancel_at_period_end) {
    return `Until ${formatDate(subscription.ends_at ?? subscription.current_period_end)}`;
  }
  return 'For as long as the plan runs';
}

function HeldSeat({ slug, subscription }: { slug: string; subscription: CustomerSubscription }) {
  const headingId = useId();
  return (
    <article className="portal-item" aria-labelledby={headingId} data-testid="held-seat">
      <SubscriptionItemHead headingId={headingId} subscription={subscription} />
      <dl className="portal-facts">
        <dt>Access</dt>
        <dd data-testid="held-seat-access">{describeAccess(subscription)}</dd>
      </dl>
      <p className="muted">
        Someone gave you a seat on this plan: they pay for it and manage it.{' '}
        <Link to="/portal/$organizationSlug/benefits" params={{ organizationSlug: slug }}>
          See what it gives you
        </Link>
      </p>
    </article>
  );
}

/** The seats this customer holds on plans others bought (Polar's claimed subscriptions). */
export function HeldSeats({ slug }: { slug: string }) {
  const seats = useQuery(portalClaimedSeatsQuery(slug));
  const items = seats.data?.items ?? [];
  if (!seats.error && items.length === 0) return null;
  return (
    <section className="portal-section" aria-labelledby="held-seats-heading" data-testid="held-seats">
      <h2 id="held-seats-heading">Seats given to you</h2>
      <ErrorNote message={seats.error?.message ?? null} />
      {items.map((subscription) => (
        <HeldSeat key={subscription.id} slug={slug} subscription={subscription} />
      ))}
    </section>
  );
}
