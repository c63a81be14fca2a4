import { describe, expect, it } from '@jest/globals';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

type Checkout = {
  id: string;
  status: string;
  client_secret: string;
  allow_trial: boolean;
  active_trial_interval: string | null;
  total_amount: number;
  payment_processor_metadata: Record<string, string>;
};

// Trial abuse prevention over a real socket, in the sandbox: one trial per customer email (its
// `+tag` ignored) and per card, refused as Polar refuses it (403 TrialAlreadyRedeemed at the
// confirmation, or, for a card known only once it is saved, the attempt failed with the reason),
// and the checkout then goes ahead at the full price. Off, as by default, trials repeat.
describe('trial abuse prevention', () => {
  const env = useTestStack();

  async function seller(preventTrialAbuse: boolean) {
    const organization = await createOrganization(env.database.db, { allowMultipleSubscriptions: true });
    const token = await createAccessToken(env.database.db, organization.id);
    const call = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, token, method, path, body);
    const settings = await call('PATCH', `/organizations/${organization.id}`, {
      subscription_settings: {
        allow_multiple_subscriptions: true,
        allow_customer_updates: true,
        proration_behavior: 'prorate',
        benefit_revocation_grace_period: 21,
        prevent_trial_abuse: preventTrialAbuse,
      },
    });
    expect(settings.status).toBe(200);
    expect(settings.body.subscription_settings).toMatchObject({ prevent_trial_abuse: preventTrialAbuse });
    const product = await call('POST', '/products/', {
      name: 'Pro',
      recurring_interval: 'month',
      trial_interval: 'day',
      trial_interval_count: 14,
      prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
    });
    expect(product.status).toBe(201);
    return { organization, call, productId: (product.body as { id: string }).id };
  }

  const client = async (clientSecret: string, method: string, suffix: string, body?: unknown) => {
    const response = await fetch(
      `${env.stack.baseUrl}/v1/checkouts/client/${encodeURIComponent(clientSecret)}${suffix}`,
      {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const confirm = (clientSecret: string, email: string, card: string) =>
    client(clientSecret, 'POST', '/confirm', {
      customer_email: email,
      customer_name: 'Ada Lovelace',
      customer_billing_address: {
        country: 'DE',
        city: 'Berlin',
        postal_code: '10117',
        line1: 'Unter den Linden 1',
      },
      confirmation_token_id: card,
    });

  async function open(
    call: (m: string, p: string, b?: unknown) => Promise<{ body: unknown }>,
    productId: string,
  ) {
    return (await call('POST', '/checkouts/', { products: [productId] })).body as Checkout;
  }

  const settled = (call: (m: string, p: string) => Promise<{ body: unknown }>, id: string) =>
    eventually(
      async () => (await call('GET', `/checkouts/${id}`)).body as Checkout,
      (checkout) => checkout.status === 'succeeded' || checkout.status === 'failed',
    );

  async function subscriptionOf(
    call: (m: string, p: string) => Promise<{ body: unknown }>,
    checkoutId: string,
  ) {
    const orders = (await call('GET', `/orders/?checkout_id=${checkoutId}`)).body as {
      items: { subscription_id: string; total_amount: number }[];
    };
    const [order] = orders.items;
    const subscription = (await call('GET', `/subscriptions/${order!.subscription_id}`)).body as {
      status: string;
      trial_end: string | null;
    };
    return { order: order!, subscription };
  }

  it('gives one trial per email and per card, and lets the buyer subscribe at the full price', async () => {
    const { organization, call, productId } = await seller(true);

    const first = await open(call, productId);
    expect((await confirm(first.client_secret, 'ada@example.test', 'pm_card_visa')).status).toBe(200);
    expect((await settled(call, first.id)).status).toBe('succeeded');
    const trialing = await subscriptionOf(call, first.id);
    expect(trialing.subscription.status).toBe('trialing');
    expect(trialing.order.total_amount).toBe(0);

    // The same buyer behind a +tag and other capitals, with another card: refused at once.
    const again = await open(call, productId);
    const refused = await confirm(again.client_secret, 'Ada+second@Example.test', 'pm_card_mastercard');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('TrialAlreadyRedeemed');
    expect(refused.body.detail).toMatch(/already had a free trial/);
    const unchanged = (await call('GET', `/checkouts/${again.id}`)).body as Checkout;
    expect(unchanged).toMatchObject({ status: 'open', allow_trial: true });
    // As Polar's page does next: the buyer declines the trial and pays the first month now.
    const declined = await client(again.client_secret, 'PATCH', '', { allow_trial: false });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ active_trial_interval: null, total_amount: 2000 });
    expect((await confirm(again.client_secret, 'Ada+second@Example.test', 'pm_card_mastercard')).status).toBe(
      200,
    );
    expect((await settled(call, again.id)).status).toBe('succeeded');
    const paid = await subscriptionOf(call, again.id);
    expect(paid.subscription).toMatchObject({ status: 'active', trial_end: null });
    expect(paid.order.total_amount).toBe(2000);

    // Another buyer with the card that had the trial: known once saved, so the attempt fails with
    // the reason, nothing is charged and the checkout goes on without its trial.
    const sameCard = await open(call, productId);
    expect((await confirm(sameCard.client_secret, 'bo@example.test', 'pm_card_visa')).status).toBe(200);
    const failed = await settled(call, sameCard.id);
    expect(failed).toMatchObject({ status: 'failed', allow_trial: false, active_trial_interval: null });
    expect(failed.payment_processor_metadata.failure_reason).toMatch(/card has already had a free trial/);
    expect((await call('GET', `/orders/?checkout_id=${sameCard.id}`)).body).toMatchObject({ items: [] });
    expect((await confirm(sameCard.client_secret, 'bo@example.test', 'pm_card_visa')).status).toBe(200);
    expect((await settled(call, sameCard.id)).status).toBe('succeeded');
    expect((await subscriptionOf(call, sameCard.id)).subscription.status).toBe('active');

    // A new buyer with a new card has their trial.
    const fresh = await open(call, productId);
    expect((await confirm(fresh.client_secret, 'cy@example.test', 'pm_card_amex')).status).toBe(200);
    expect((await settled(call, fresh.id)).status).toBe('succeeded');
    expect((await subscriptionOf(call, fresh.id)).subscription.status).toBe('trialing');

    // Trials given are recorded by email and card; paid plans are not.
    const redemptions = await env.database.db.trialRedemption.findMany({
      where: { organizationId: organization.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(redemptions.map((each) => each.customerEmail)).toEqual(['ada@example.test', 'cy@example.test']);
    expect(redemptions.every((each) => each.paymentMethodFingerprint?.startsWith('fp_sbx_'))).toBe(true);
    expect(new Set(redemptions.map((each) => each.paymentMethodFingerprint)).size).toBe(2);
  });

  it('gives trials again and again when the organization allows it, as by default', async () => {
    const { call, productId } = await seller(false);
    for (const email of ['ada@example.test', 'ada@example.test']) {
      const checkout = await open(call, productId);
      expect((await confirm(checkout.client_secret, email, 'pm_card_visa')).status).toBe(200);
      expect((await settled(call, checkout.id)).status).toBe('succeeded');
      expect((await subscriptionOf(call, checkout.id)).subscription.status).toBe('trialing');
    }
  });
});
