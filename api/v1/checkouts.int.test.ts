import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { Prisma } from '../../generated/prisma/client.js';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';
import { eventually } from '../../test/eventually.js';

const WEBHOOK_SECRET = 'tollgate_whs_checkout-flow-secret';
const ADDRESS = { country: 'US', state: 'CA', city: 'Oakland', postalCode: '94607', line1: '1 Broadway' };
const ADDRESS_WIRE = {
  country: 'US',
  state: 'CA',
  city: 'Oakland',
  postal_code: '94607',
  line1: '1 Broadway',
};

describe('checkout → payment → order → refund (sandbox processor, through @polar-sh/sdk)', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function seller(
    price: Parameters<Polar['products']['create']>[0]['prices'][number] = {
      amountType: 'fixed',
      priceAmount: 2500,
      priceCurrency: 'usd',
    },
  ) {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const product = await polar.products.create({
      name: 'Field guide',
      recurringInterval: null,
      prices: [price],
    });
    return { organization, token, polar, product };
  }

  const client = () => new Polar({ serverURL: env.stack.baseUrl });

  it('sells a fixed-price product with a discount code: order, customer, webhooks, invoice-ready amounts', async () => {
    const { polar, product } = await seller();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: WEBHOOK_SECRET,
      events: [
        'checkout.created',
        'checkout.updated',
        'order.created',
        'order.paid',
        'order.updated',
        'order.refunded',
        'customer.created',
        'customer.state_changed',
        'refund.created',
        'refund.updated',
      ],
    });
    const discount = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 2000,
      name: 'Launch',
      code: 'LAUNCH20',
      maxRedemptions: 5,
    });

    const checkout = await polar.checkouts.create({
      products: [product.id],
      successUrl: 'https://shop.example.test/thanks/{CHECKOUT_ID}',
      metadata: { campaign: 'spring' },
    });
    expect(checkout).toMatchObject({
      status: 'open',
      amount: 2500,
      discountAmount: 0,
      netAmount: 2500,
      totalAmount: 2500,
      currency: 'usd',
      productId: product.id,
      productPriceId: product.prices[0]!.id,
      isPaymentRequired: true,
      isFreeProductPrice: false,
      successUrl: `https://shop.example.test/thanks/${checkout.id}`,
      metadata: { campaign: 'spring' },
    });
    expect(checkout.url).toBe(`${env.stack.baseUrl}/checkout/${checkout.clientSecret}`);

    const buyer = client();
    const updated = await buyer.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        customerEmail: 'Ada@Example.test',
        customerName: 'Ada Lovelace',
        customerBillingAddress: ADDRESS,
        discountCode: 'launch20',
      },
    });
    expect(updated).toMatchObject({
      discountId: discount.id,
      amount: 2500,
      discountAmount: 500,
      netAmount: 2000,
      taxAmount: 0,
      totalAmount: 2000,
      customerEmail: 'ada@example.test',
      isDiscountApplicable: true,
    });
    expect(updated.customerBillingAddressFields).toMatchObject({ country: true, state: true });

    const confirmed = await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.customerSessionToken).toMatch(/^tollgate_cst_/);

    const succeeded = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    expect(succeeded.customerId).not.toBeNull();
    const orders = await polar.orders.list({ checkoutId: checkout.id });
    expect(orders.result.items).toHaveLength(1);
    const order = orders.result.items[0]!;
    expect(order).toMatchObject({
      status: 'paid',
      paid: true,
      subtotalAmount: 2500,
      discountAmount: 500,
      netAmount: 2000,
      taxAmount: 0,
      totalAmount: 2000,
      refundedAmount: 0,
      currency: 'usd',
      billingReason: 'purchase',
      billingName: 'Ada Lovelace',
      customerId: succeeded.customerId,
      productId: product.id,
      discountId: discount.id,
      checkoutId: checkout.id,
      metadata: { campaign: 'spring' },
    });
    expect(order.items).toEqual([
      expect.objectContaining({
        label: 'Field guide',
        amount: 2500,
        taxAmount: 0,
        productPriceId: product.prices[0]!.id,
      }),
    ]);
    expect(order.customer.email).toBe('ada@example.test');
    expect((await polar.discounts.get({ id: discount.id })).redemptionsCount).toBe(1);

    // The invoice: a real PDF behind a short-lived link, numbered once.
    await expect(polar.orders.invoice({ id: order.id })).rejects.toMatchObject({ statusCode: 404 });
    await polar.orders.generateInvoice({ id: order.id });
    await expect(polar.orders.generateInvoice({ id: order.id })).rejects.toMatchObject({
      statusCode: 409,
      error: 'InvoiceAlreadyExists',
    });
    const { url } = await polar.orders.invoice({ id: order.id });
    const pdf = await fetch(url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await polar.orders.get({ id: order.id })).isInvoiceGenerated).toBe(true);
    expect((await fetch(url.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')))).status).toBe(404);

    // Half back, then the rest; the order follows.
    const refund = await polar.refunds.create({
      orderId: order.id,
      reason: 'customer_request',
      amount: 1000,
    });
    expect(refund).toMatchObject({ status: 'pending', amount: 1000, taxAmount: 0, orderId: order.id });
    const partially = await eventually(
      () => polar.orders.get({ id: order.id }),
      (value) => value.status === 'partially_refunded',
    );
    expect(partially.refundedAmount).toBe(1000);
    await expect(
      polar.refunds.create({ orderId: order.id, reason: 'customer_request', amount: 1001 }),
    ).rejects.toMatchObject({ statusCode: 400, error: 'RefundAmountTooHigh' });
    await polar.refunds.create({ orderId: order.id, reason: 'other', amount: 1000 });
    await eventually(
      () => polar.orders.get({ id: order.id }),
      (value) => value.status === 'refunded' && value.refundedAmount === 2000,
    );
    await expect(
      polar.refunds.create({ orderId: order.id, reason: 'other', amount: 1 }),
    ).rejects.toMatchObject({ statusCode: 403, error: 'RefundedAlready' });
    const refunds = await polar.refunds.list({ orderId: order.id, succeeded: true });
    expect(refunds.result.items.map((item) => item.amount).sort()).toEqual([1000, 1000]);

    const wanted = [
      'checkout.created',
      'checkout.updated',
      'customer.created',
      'order.created',
      'order.paid',
      'refund.created',
      'refund.updated',
      'order.refunded',
    ];
    const types = async () =>
      receiver.received.map((request) => validateEvent(request.body, request.headers, WEBHOOK_SECRET).type);
    const seen = await eventually(types, (list) => wanted.every((type) => list.includes(type as never)));
    expect(seen.filter((type) => type === 'order.created')).toHaveLength(1);
    expect(seen.filter((type) => type === 'order.paid')).toHaveLength(1);
  });

  // A process killed after making the refund but before storing its answer leaves the key claimed;
  // the retry that takes the claim over two minutes later must find that refund, not make another.
  it('makes a refund once when its retry takes over the key of a process that died', async () => {
    const { organization, polar, token, product } = await seller();
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await client().checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'once@example.test',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const order = (await polar.orders.list({ checkoutId: checkout.id })).result.items[0]!;
    const key = `refund-${order.id}`;
    const refund = () =>
      fetch(`${env.stack.baseUrl}/v1/refunds/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ order_id: order.id, reason: 'customer_request', amount: 500 }),
      });
    const first = await refund();
    expect(first.status).toBe(200);
    const made = (await first.json()) as { id: string };
    await env.database.db.idempotencyKey.updateMany({
      where: { key },
      data: { status: null, responseBody: Prisma.DbNull, createdAt: new Date(Date.now() - 3 * 60_000) },
    });
    const retried = await refund();
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await retried.json()).toMatchObject({ id: made.id, amount: 500 });
    expect(await env.database.db.refund.count({ where: { orderId: order.id } })).toBe(1);
    expect(
      await env.database.db.outboxEvent.count({
        where: { organizationId: organization.id, type: 'refund.created' },
      }),
    ).toBe(1);
  });

  it('shows a decline with the processor’s reason and lets the buyer retry with another card', async () => {
    const { polar, product } = await seller();
    await polar.discounts.create({
      type: 'fixed',
      duration: 'once',
      amount: 300,
      currency: 'usd',
      name: 'Three',
      code: 'THREE',
      maxRedemptions: 1,
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const buyer = client();
    await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'grace@example.test',
        customerBillingAddress: ADDRESS,
        discountCode: 'THREE',
        confirmationTokenId: 'pm_card_chargeDeclinedInsufficientFunds',
      },
    });
    const failed = await eventually(
      () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
      (value) => value.status === 'failed',
    );
    expect(failed.totalAmount).toBe(2200);
    expect(failed.paymentProcessorMetadata).toEqual({ failure_reason: 'Your card has insufficient funds.' });
    // The failed attempt gave its redemption back, so the one-use code still works for the retry.
    await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa' },
    });
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const orders = await polar.orders.list({ checkoutId: checkout.id });
    expect(orders.result.items.map((order) => order.totalAmount)).toEqual([2200]);
    const failedReason = await env.database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(failedReason.failureReason).toBeNull();
    const paid = await buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret });
    expect(paid.paymentProcessorMetadata).toEqual({});
  });

  it('asks for 3-D Secure: a failed authentication declines, a completed one pays exactly once', async () => {
    const { polar, product } = await seller();
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const buyer = client();
    const authenticate = (body: unknown) =>
      fetch(`${env.stack.baseUrl}/api/sandbox/payments/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const confirmAndWaitForAuthentication = async () => {
      await buyer.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: 'ada@example.test',
          customerBillingAddress: ADDRESS,
          confirmationTokenId: 'pm_card_authenticationRequired',
        },
      });
      const waiting = await eventually(
        () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
        (value) => value.paymentProcessorMetadata.intent_status === 'requires_action',
      );
      expect(waiting.status).toBe('confirmed');
      return waiting.paymentProcessorMetadata.intent_client_secret!;
    };

    const firstSecret = await confirmAndWaitForAuthentication();
    expect(firstSecret).toMatch(/^pi_sbx_[0-9a-f]{24}_secret_[0-9a-f]{32}$/);
    // The secret is the credential: a guessed one and a malformed body change nothing.
    const guessed = await authenticate({
      client_secret: firstSecret.replace(/.{4}$/, '0000'),
      outcome: 'complete',
    });
    expect(guessed.status).toBe(404);
    const malformed = await authenticate({ client_secret: firstSecret, outcome: 'maybe' });
    expect(malformed.status).toBe(422);
    expect(((await malformed.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
      'body',
      'outcome',
    ]);

    const refused = await authenticate({ client_secret: firstSecret, outcome: 'fail' });
    expect(await refused.json()).toEqual({ status: 'failed' });
    const failed = await eventually(
      () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
      (value) => value.status === 'failed',
    );
    expect(failed.paymentProcessorMetadata).toEqual({
      failure_reason:
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    });

    const secondSecret = await confirmAndWaitForAuthentication();
    expect(secondSecret).not.toBe(firstSecret);
    // Answering the first payment's page again changes nothing.
    expect(await (await authenticate({ client_secret: firstSecret, outcome: 'complete' })).json()).toEqual({
      status: 'failed',
    });
    const completed = await authenticate({ client_secret: secondSecret, outcome: 'complete' });
    expect(await completed.json()).toEqual({ status: 'succeeded' });
    const succeeded = await eventually(
      () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
      (value) => value.status === 'succeeded',
    );
    expect(succeeded.paymentProcessorMetadata).toEqual({});
    expect(await (await authenticate({ client_secret: secondSecret, outcome: 'complete' })).json()).toEqual({
      status: 'succeeded',
    });
    const orders = await polar.orders.list({ checkoutId: checkout.id });
    expect(orders.result.items).toHaveLength(1);
    expect(orders.result.items[0]).toMatchObject({ status: 'paid', totalAmount: 2500 });
    const payments = await env.database.db.sandboxPayment.findMany({
      where: { metadata: { path: ['checkout_id'], equals: checkout.id } },
      orderBy: { createdAt: 'asc' },
    });
    expect(payments.map((payment) => payment.status)).toEqual(['failed', 'succeeded']);
  });

  // Regression: a US buyer could not pay. The hosted form sends the country first and shows the
  // fields the answer asks for; the update refused a US address without a state, so the form never
  // learnt it needed one.
  it('takes a US or Canadian country before the state, then asks for the state at confirmation', async () => {
    const { polar, product } = await seller();
    const buyer = client();
    for (const [country, state] of [
      ['US', 'NY'],
      ['CA', 'QC'],
    ] as const) {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      const chosen = await buyer.checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: { customerBillingAddress: { country } },
      });
      expect(chosen.customerBillingAddress).toMatchObject({ country });
      expect(chosen.customerBillingAddressFields).toMatchObject({ country: true, state: true });

      const withoutState = await fetch(
        `${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}/confirm`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            customer_email: `${country.toLowerCase()}@example.test`,
            customer_name: 'Buyer',
            customer_billing_address: { ...ADDRESS_WIRE, country, state: null },
            confirmation_token_id: 'pm_card_visa',
          }),
        },
      );
      expect(withoutState.status).toBe(422);
      expect(((await withoutState.json()) as { detail: unknown[] }).detail).toContainEqual(
        expect.objectContaining({ loc: ['body', 'customer_billing_address', 'state'] }),
      );

      const wrongState = await fetch(`${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          customer_billing_address: { country, state: country === 'US' ? 'QC' : 'NY' },
        }),
      });
      expect(wrongState.status).toBe(422);
      expect(((await wrongState.json()) as { detail: unknown[] }).detail).toContainEqual(
        expect.objectContaining({
          loc: ['body', 'customer_billing_address', 'state'],
          msg: country === 'US' ? 'Invalid US state.' : 'Invalid CA subdivision.',
        }),
      );

      await buyer.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: `${country.toLowerCase()}@example.test`,
          customerName: 'Buyer',
          customerBillingAddress: { ...ADDRESS, country, state },
          confirmationTokenId: 'pm_card_visa',
        },
      });
      await eventually(
        () => polar.checkouts.get({ id: checkout.id }),
        (value) => value.status === 'succeeded',
      );
    }
  });

  it('refuses to confirm twice and an expired checkout', async () => {
    const { polar, product } = await seller();
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const buyer = client();
    const body = {
      customerEmail: 'x@example.test',
      customerBillingAddress: ADDRESS,
      confirmationTokenId: 'pm_card_visa',
    };
    await buyer.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: body });
    await expect(
      buyer.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: body }),
    ).rejects.toMatchObject({ statusCode: 403 });

    const stale = await polar.checkouts.create({ products: [product.id] });
    await env.database.db.checkout.update({
      where: { id: stale.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(buyer.checkouts.clientGet({ clientSecret: stale.clientSecret })).rejects.toMatchObject({
      statusCode: 410,
      error: 'ExpiredCheckoutError',
    });
    await expect(
      buyer.checkouts.clientConfirm({ clientSecret: stale.clientSecret, checkoutConfirmStripe: body }),
    ).rejects.toMatchObject({ statusCode: 410 });
  });

  it('checks pay-what-you-want bounds and sells free prices without a card', async () => {
    const { polar, product } = await seller({
      amountType: 'custom',
      priceCurrency: 'usd',
      minimumAmount: 500,
      maximumAmount: 10_000,
      presetAmount: 1500,
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    expect(checkout.amount).toBe(1500);
    const buyer = client();
    await expect(
      buyer.checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: { amount: 100 },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
    const chosen = await buyer.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { amount: 4200 },
    });
    expect(chosen).toMatchObject({ amount: 4200, totalAmount: 4200 });

    const free = await seller({ amountType: 'free' });
    const freeCheckout = await free.polar.checkouts.create({ products: [free.product.id] });
    expect(freeCheckout).toMatchObject({
      isFreeProductPrice: true,
      isPaymentRequired: false,
      totalAmount: 0,
    });
    await buyer.checkouts.clientConfirm({
      clientSecret: freeCheckout.clientSecret,
      checkoutConfirmStripe: { customerEmail: 'free@example.test' },
    });
    await eventually(
      () => free.polar.checkouts.get({ id: freeCheckout.id }),
      (value) => value.status === 'succeeded',
    );
    const [order] = (await free.polar.orders.list({ checkoutId: freeCheckout.id })).result.items;
    expect(order).toMatchObject({ totalAmount: 0, status: 'paid' });

    await expect(free.polar.orders.generateInvoice({ id: order!.id })).rejects.toMatchObject({
      statusCode: 422,
      error: 'MissingInvoiceBillingDetails',
    });
  });

  it('sells a free-or-pay-what-you-want price (minimum 0) at 0 without a payment', async () => {
    const { polar, product } = await seller({ amountType: 'custom', priceCurrency: 'usd', minimumAmount: 0 });
    expect(product.prices[0]).toMatchObject({ amountType: 'custom', minimumAmount: 0 });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    // No preset and no minimum to start from: Polar's $10 fallback.
    expect(checkout).toMatchObject({ amount: 1000, isPaymentRequired: true });
    const buyer = client();
    // Between 0 and the smallest charge Stripe takes: refused.
    await expect(
      buyer.checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: { amount: 20 },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
    const zero = await buyer.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { amount: 0 },
    });
    expect(zero).toMatchObject({
      amount: 0,
      totalAmount: 0,
      isFreeProductPrice: false,
      isPaymentRequired: false,
      isPaymentFormRequired: false,
    });
    await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerEmail: 'reader@example.test' },
    });
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const orders = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(orders).toEqual([expect.objectContaining({ totalAmount: 0, netAmount: 0, status: 'paid' })]);
    const payments = await env.database.db.sandboxPayment.count({
      where: { metadata: { path: ['checkout_id'], equals: checkout.id } },
    });
    expect(payments).toBe(0);
  });

  // A launch-sized burst on two cores: it may take longer than the default minute on a busy machine.
  it('redeems a 10-use code exactly 10 times under 100 concurrent confirmations', async () => {
    const { polar, product } = await seller();
    const discount = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 1000,
      name: 'Ten',
      code: 'TEN',
      maxRedemptions: 10,
    });
    const buyer = client();
    // Set up ten at a time: the burst under test is the confirmations, not the creations.
    const checkouts = [];
    for (let batch = 0; batch < 10; batch += 1) {
      checkouts.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, () =>
            polar.checkouts.create({ products: [product.id], discountId: discount.id }),
          ),
        )),
      );
    }
    const results = await Promise.allSettled(
      checkouts.map((checkout, index) =>
        buyer.checkouts.clientConfirm({
          clientSecret: checkout.clientSecret,
          checkoutConfirmStripe: {
            customerEmail: `buyer${index}@example.test`,
            customerBillingAddress: ADDRESS,
            confirmationTokenId: 'pm_card_visa',
          },
        }),
      ),
    );
    const outcomes = results.map((result) =>
      result.status === 'fulfilled'
        ? 'confirmed'
        : `${(result.reason as { statusCode?: number }).statusCode} ${String(result.reason).slice(0, 300)}`,
    );
    // Each confirmation is either confirmed or refused with a 422 about the discount; nothing else.
    expect(outcomes.filter((outcome) => outcome !== 'confirmed' && !outcome.startsWith('422'))).toEqual([]);
    expect(outcomes.filter((outcome) => outcome === 'confirmed')).toHaveLength(10);
    const stored = await env.database.db.discount.findUniqueOrThrow({ where: { id: discount.id } });
    expect(stored.redemptionsCount).toBe(10);
  }, 180_000);
});
