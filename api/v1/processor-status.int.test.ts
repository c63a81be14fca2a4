import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { PaymentProcessorError, refusedPaymentNotice } from '../../domain/payments/errors.js';
import type {
  PaymentInput,
  PaymentProcessor,
  PaymentResult,
  RefundInput,
  RefundResult,
} from '../../domain/payments/processor.js';
import type { ProcessorFailureClass } from '../../domain/payments/rules.js';
import { signUpUser } from '../../test/auth-client.js';
import { eventually } from '../../test/eventually.js';
import {
  addMember,
  createAccessToken,
  createCheckout,
  createOrder,
  createOrganization,
  createProduct,
  createRefund,
} from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

const unused = async (): Promise<never> => {
  throw new Error('only payments and refunds are asked of this processor');
};

/**
 * Payments and refunds succeed unless `failWith` names how the processor fails them; `payments`
 * and `refunds` count every ask.
 */
const processor = {
  name: 'sandbox' as const,
  payments: [] as PaymentInput[],
  refunds: [] as RefundInput[],
  failWith: null as null | { failureClass: ProcessorFailureClass; code: string; message: string },
  throwFailure() {
    const failure = processor.failWith;
    if (failure) throw new PaymentProcessorError(failure.code, failure.message, failure.failureClass);
  },
  async ensureCustomer() {
    return { processorCustomerId: 'cus_1' };
  },
  async pay(input: PaymentInput): Promise<PaymentResult> {
    processor.payments.push(input);
    processor.throwFailure();
    return { status: 'succeeded', paymentId: `pi_${processor.payments.length}`, paymentMethod: null };
  },
  async refund(input: RefundInput): Promise<RefundResult> {
    processor.refunds.push(input);
    processor.throwFailure();
    return { status: 'succeeded', processorRefundId: `re_${processor.refunds.length}` };
  },
  setUpOffSession: unused,
  cancelPayment: unused,
  savedPaymentMethod: unused,
  detachPaymentMethod: unused,
  closeDispute: unused,
  chargeOffSession: unused,
} satisfies PaymentProcessor & Record<string, unknown>;

describe('the retry contract: checkouts, refunds and GET /v1/organizations/{id}/processor-status', () => {
  const env = useTestStack({ processor });
  beforeEach(async () => {
    await env.database.reset();
    processor.payments.length = 0;
    processor.refunds.length = 0;
    processor.failWith = null;
  });

  /** A paid order (its payment `pi_paid`) of a new organization, and the organization's token. */
  async function paidOrder() {
    const token = await createAccessToken(env.database.db, (await createOrganization(env.database.db)).id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const order = await createOrder(env.database.db, polar);
    await env.database.db.order.update({ where: { id: order.id }, data: { paymentId: 'pi_paid' } });
    return { polar, order, token };
  }

  const refundRow = (id: string) => env.database.db.refund.findUniqueOrThrow({ where: { id } });
  const statusOf = (organizationId: string, headers: Record<string, string>) =>
    fetch(`${env.stack.baseUrl}/v1/organizations/${organizationId}/processor-status`, { headers });

  it('permanent: a checkout whose charge the processor refuses tells the seller its reason and the buyer plain words', async () => {
    processor.failWith = {
      failureClass: 'permanent',
      code: 'resource_missing',
      message: "No such customer: 'cus_1'",
    };
    const organization = await createOrganization(env.database.db, { name: 'Acme Tools' });
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const checkout = await createCheckout(polar, (await createProduct(polar)).id);
    const buyer = new Polar({ serverURL: env.stack.baseUrl });
    await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'ada@example.test',
        customerBillingAddress: { country: 'DE' },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const failed = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'failed',
    );
    expect(failed.paymentProcessorMetadata).toEqual({
      failure_reason:
        "The payment processor refused the request (resource_missing): No such customer: 'cus_1'",
    });
    // The hosted page reads this through the client API, and shows it on the form.
    const shown = await buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret });
    expect(shown.paymentProcessorMetadata).toEqual({ failure_reason: refusedPaymentNotice('Acme Tools') });
    expect(processor.payments).toHaveLength(1);
  });

  it('permanent: a refund the processor refuses is asked once and fails with the reason, shown on the order', async () => {
    processor.failWith = {
      failureClass: 'permanent',
      code: 'charge_already_refunded',
      message: 'Charge ch_1 has already been refunded.',
    };
    const { polar, order } = await paidOrder();
    const refund = await createRefund(polar, order.id);
    const failed = await eventually(
      () => refundRow(refund.id),
      (row) => row.status !== 'pending',
    );
    expect(failed).toMatchObject({
      status: 'failed',
      failureReason:
        'The payment processor refused the request (charge_already_refunded): Charge ch_1 has already been refunded.',
    });
    expect(processor.refunds).toHaveLength(1);
    const timeline = await fetch(`${env.stack.baseUrl}/v1/orders/${order.id}/timeline`, {
      headers: { authorization: `Bearer ${await createAccessToken(env.database.db, order.organizationId)}` },
    });
    const entries = ((await timeline.json()) as { items: { type: string; detail: string | null }[] }).items;
    expect(entries.find((entry) => entry.type === 'refund_failed')?.detail).toBe(failed.failureReason);
  });

  it('configuration: a refused key keeps the refund pending, shows owners and admins the problem, and clears once fixed', async () => {
    processor.failWith = {
      failureClass: 'configuration',
      code: 'StripePermissionError',
      message: 'The provided key does not have the required permissions for this endpoint.',
    };
    const { polar, order, token } = await paidOrder();
    const organizationId = order.organizationId;
    const [owner, admin, member, stranger] = await Promise.all([
      signUpUser(env.stack.baseUrl),
      signUpUser(env.stack.baseUrl),
      signUpUser(env.stack.baseUrl),
      signUpUser(env.stack.baseUrl),
    ]);
    await addMember(env.database.db, organizationId, owner.user.id, 'owner');
    await addMember(env.database.db, organizationId, admin.user.id, 'admin');
    await addMember(env.database.db, organizationId, member.user.id, 'member');
    await addMember(
      env.database.db,
      (await createOrganization(env.database.db)).id,
      stranger.user.id,
      'owner',
    );

    const quiet = await statusOf(organizationId, owner.sessionHeaders());
    expect(quiet.status).toBe(200);
    expect(await quiet.json()).toEqual({ configuration_problem: null });

    const refund = await createRefund(polar, order.id);
    const held = await eventually(
      async () => (await statusOf(organizationId, owner.sessionHeaders())).json(),
      (body) => (body as { configuration_problem: unknown }).configuration_problem !== null,
    );
    expect(held).toEqual({
      configuration_problem: {
        processor: 'sandbox',
        code: 'StripePermissionError',
        message: 'The provided key does not have the required permissions for this endpoint.',
        since: expect.stringMatching(/Z$/),
        last_seen_at: expect.stringMatching(/Z$/),
      },
    });
    expect(await (await statusOf(organizationId, admin.sessionHeaders())).json()).toEqual(held);
    expect(await (await statusOf(organizationId, { authorization: `Bearer ${token}` })).json()).toEqual(held);
    const forMember = await statusOf(organizationId, member.sessionHeaders());
    expect(forMember.status).toBe(403);
    expect(await forMember.json()).toMatchObject({ error: 'NotPermitted' });
    expect((await statusOf(organizationId, stranger.sessionHeaders())).status).toBe(404);
    expect((await refundRow(refund.id)).status).toBe('pending');

    // Fixed: the workflow's next try (a minute after the first) goes through and clears it.
    processor.failWith = null;
    const settled = await eventually(
      () => refundRow(refund.id),
      (row) => row.status !== 'pending',
      120_000,
    );
    expect(settled.status).toBe('succeeded');
    expect(await (await statusOf(organizationId, owner.sessionHeaders())).json()).toEqual({
      configuration_problem: null,
    });
    expect(processor.refunds.length).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
