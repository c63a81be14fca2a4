// Which card is the default, and what deleting one does to the plans renewing on it. Pure.

export type SavedCard = { id: string; isDefault: boolean; createdAt: Date };

/**
 * Deleting a card never leaves a plan without one: the plans renewing on it move to the card that
 * is (or becomes) the default. When no other card is left and a plan still renews on this one, it
 * cannot be deleted (Polar lets a buyer delete the only card of an active plan, which then fails
 * at its renewal).
 */
export type DeletionPlan =
  { kind: 'delete'; newDefaultId: string | null; moveSubscriptionsTo: string | null } | { kind: 'refuse' };

export function planDeletion(input: {
  target: SavedCard;
  liveCards: readonly SavedCard[];
  /** Billable plans (active, trialing, past_due) renewing on the target. */
  subscriptionsOnTarget: number;
}): DeletionPlan {
  const others = input.liveCards
    .filter((card) => card.id !== input.target.id)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const currentDefault = others.find((card) => card.isDefault) ?? null;
  const heir = currentDefault ?? others[0] ?? null;
  if (!heir) {
    if (input.subscriptionsOnTarget > 0) return { kind: 'refuse' };
    return { kind: 'delete', newDefaultId: null, moveSubscriptionsTo: null };
  }
  return {
    kind: 'delete',
    newDefaultId: currentDefault ? null : heir.id,
    moveSubscriptionsTo: input.subscriptionsOnTarget > 0 ? heir.id : null,
  };
}

/** A card being saved for a customer, one per portal request. */
export const paymentMethodSetupWorkflowId = (customerId: string, requestId: string) =>
  `payment-method-setup:${customerId}:${requestId}`;

/** A deleted card being taken off the processor's customer. */
export const paymentMethodDetachWorkflowId = (paymentMethodId: string) =>
  `payment-method-detach:${paymentMethodId}`;

export type PaymentMethodSetupInput = {
  /** Names the workflow and the processor's idempotency key: a retried save never saves twice. */
  requestId: string;
  organizationId: string;
  customerId: string;
  setDefault: boolean;
} & (
  | { confirmationTokenId: string }
  /** A setup that asked for authentication, which the buyer has completed with their bank since. */
  | { setupIntentId: string }
);

export type PaymentMethodSetupResult =
  | { status: 'saved'; paymentMethodId: string }
  | { status: 'declined'; message: string }
  /** The bank asks the buyer to confirm the card: its page runs with `clientSecret`. */
  | { status: 'requires_action'; setupIntentId: string; clientSecret: string };
