// A seller (PATCH {seats, proration_behavior}) or, where the organization allows it, the buyer in
// the portal changes how many seats a seat-priced plan holds. A seat change is a plan change onto
// the same product at another fee (changes.ts): the time left is credited at the old seats' fee
// and charged at the new one's, by the proration behavior asked for (else the organization's), in
// one order with `invoice`; `next_period` records the seats on the pending update for the renewal.
import type { Db } from '../../infra/db.js';
import { findOrganizationById } from '../organizations/repository.js';
import { countLiveSeats } from '../customer-seats/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import {
  changeSubscriptionPlan,
  isChangeable,
  type PlanChangeContext,
  type RequestedBehavior,
} from './changes.js';
import type { SubscriptionRow } from './repository.js';
import type { Subscription } from './schemas.js';

type SeatChange = { seats: number; proration_behavior?: RequestedBehavior | null };

/** `current`: the subscription as the caller, allowed to manage it, found it. */
export async function changeSubscriptionSeats(
  ctx: PlanChangeContext,
  current: SubscriptionRow,
  input: SeatChange,
): Promise<Subscription> {
  // Polar's order of refusals: a plan that ended or is set to end first, then the seats themselves.
  if (!isChangeable(current)) throw new AppError('AlreadyCanceledSubscription');
  const given = await countLiveSeats(ctx.db, { subscriptionId: current.id });
  if (input.seats < given) {
    throw new InvalidFieldError(
      ['body', 'seats'],
      `${given} seats are given to people: revoke ${given - input.seats === 1 ? 'one' : given - input.seats} of them before going down to ${input.seats}.`,
    );
  }
  return changeSubscriptionPlan(ctx, current, { seats: input.seats }, input.proration_behavior);
}

/** The portal's seat change: only where the seller turned on `customer_portal_settings.subscription.update_seats`. */
export async function changeCustomerSubscriptionSeats(
  ctx: PlanChangeContext,
  current: SubscriptionRow,
  input: SeatChange,
): Promise<Subscription> {
  await assertCustomerMayChangeSeats(ctx.db, current.organizationId);
  return changeSubscriptionSeats(ctx, current, input);
}

async function assertCustomerMayChangeSeats(db: Db, organizationId: string): Promise<void> {
  const organization = await findOrganizationById(db.sql, organizationId);
  if (!organization?.customerPortalUpdateSeats) {
    throw new AppError(
      'NotPermitted',
      'This seller does not let customers change their seats; contact them to change them.',
    );
  }
}
