import { useQueryClient } from '@tanstack/react-query';
import {
  subscriptionSchema,
  type Subscription,
  type SubscriptionUpdate,
} from '../../domain/subscriptions/schemas';
import { sendJson } from '../api';
import { subscriptionQuery } from './queries';

/** PATCH /v1/subscriptions/{id}: cancel, resume, revoke, or change the plan or the discount. */
export function updateSubscription(
  subscriptionId: string,
  change: SubscriptionUpdate,
): Promise<Subscription> {
  return sendJson('PATCH', `/v1/subscriptions/${subscriptionId}`, change, subscriptionSchema);
}

/**
 * Sends a change and refreshes what it touches: the subscription at once (from the answer), then
 * the lists it appears in, its orders (a plan change billed now adds one) and its customer's state.
 */
export function useSubscriptionChange(subscriptionId: string) {
  const queryClient = useQueryClient();
  return async (change: SubscriptionUpdate): Promise<Subscription> => {
    const updated = await updateSubscription(subscriptionId, change);
    queryClient.setQueryData(subscriptionQuery(subscriptionId).queryKey, updated);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['subscriptions'] }),
      queryClient.invalidateQueries({ queryKey: ['orders'] }),
      queryClient.invalidateQueries({ queryKey: ['customer-state', updated.customer_id] }),
    ]);
    return updated;
  };
}
