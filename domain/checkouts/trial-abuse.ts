// Trial abuse prevention (Polar's `subscription_settings.prevent_trial_abuse`): with it on, an
// organization gives one free trial per customer and per card. Every trial given is recorded, the
// setting on or off, so turning it on later counts the trials already given.
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../platform/errors.js';
import { findTrialRedemption, insertTrialRedemption } from './repository.js';

type Client = Db | Prisma.TransactionClient;

/**
 * The address a buyer is recognised by: lower-cased and without a `+tag` in its local part
 * (`ann+2@example.com` is `ann@example.com`), as Polar compares them, so sub-addressing gives no
 * second trial.
 */
export function unaliasedEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  const local = lower.slice(0, at).split('+', 1)[0]!;
  return `${local || lower.slice(0, at)}${lower.slice(at)}`;
}

/**
 * Refuses, when the organization prevents trial abuse, a trial to a buyer who had one: by their
 * email or by the customer the checkout is for. Checked at confirmation, before anything is
 * charged or saved; the buyer's page then offers the plan without its trial (Polar's flow).
 */
export async function assertTrialNotRedeemed(
  tx: Client,
  buyer: { organizationId: string; preventTrialAbuse: boolean; email: string; customerId: string | null },
): Promise<void> {
  if (!buyer.preventTrialAbuse) return;
  const found = await findTrialRedemption(tx, buyer.organizationId, {
    email: unaliasedEmail(buyer.email),
    customerId: buyer.customerId,
  });
  if (found) throw new AppError('TrialAlreadyRedeemed');
}

/** Whether the organization already gave a trial to the card with this processor fingerprint. */
export async function cardHadTrial(
  db: Client,
  organizationId: string,
  fingerprint: string,
): Promise<boolean> {
  return (await findTrialRedemption(db, organizationId, { fingerprint })) !== null;
}

/**
 * Records the trial a fulfilled checkout gave. One per checkout (its unique `checkout_id`), so a
 * replayed fulfilment records nothing twice.
 */
export async function recordTrialRedemption(
  tx: Prisma.TransactionClient,
  input: {
    organizationId: string;
    customerId: string;
    email: string;
    checkoutId: string;
    fingerprint: string | null;
  },
): Promise<void> {
  await insertTrialRedemption(tx, {
    organizationId: input.organizationId,
    customerId: input.customerId,
    customerEmail: unaliasedEmail(input.email),
    paymentMethodFingerprint: input.fingerprint,
    checkoutId: input.checkoutId,
  });
}

/** What the buyer reads when the card they gave already had a trial here. */
export const CARD_HAD_TRIAL_MESSAGE =
  'This card has already had a free trial here, so the plan starts without one. Nothing was charged: confirm again to subscribe at the full price.';
