import { Link } from '@tanstack/react-router';
import type { BenefitGrant } from '../../domain/benefits/schemas';

/** What the customer holds the grant through: the subscription, or the one-time order. */
export function GrantSource({ grant }: { grant: Pick<BenefitGrant, 'subscription_id' | 'order_id'> }) {
  if (grant.subscription_id) {
    return (
      <Link to="/dashboard/subscriptions/$subscriptionId" params={{ subscriptionId: grant.subscription_id }}>
        Subscription
      </Link>
    );
  }
  if (grant.order_id) {
    return (
      <Link to="/dashboard/orders/$orderId" params={{ orderId: grant.order_id }}>
        Order
      </Link>
    );
  }
  return <span className="muted">—</span>;
}
