import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

describe("the buyer's emails carry the seller's custom benefit notes", () => {
  const env = useTestStack();

  async function sellerWithNote() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const support = await polar.benefits.create({
      type: 'custom',
      description: 'Priority support',
      properties: { note: 'Write to vip@seller.test with your order number.' },
    });
    const silent = await polar.benefits.create({ type: 'custom', description: 'No note', properties: {} });
    const withNotes = async (product: { id: string }) => {
      await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [support.id, silent.id] },
      });
      return product;
    };
    return { organization, polar, withNotes };
  }

  const emailsTo = (address: string) =>
    env.database.db.emailMessage.findMany({ where: { toAddress: address }, orderBy: { createdAt: 'asc' } });

  it('a one-time purchase gets one receipt with the amount, the note and the portal link', async () => {
    const { organization, polar, withNotes } = await sellerWithNote();
    const product = await withNotes(
      await polar.products.create({
        name: 'Desk lamp',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
      }),
    );
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    await buyInSandbox(polar, env.stack.baseUrl, product.id, customer.id);
    const [receipt] = await eventually(
      () => emailsTo('ada@example.test'),
      (emails) => emails.length === 1,
    );
    expect(receipt!.subject).toBe('Receipt for Desk lamp');
    expect(receipt!.text).toContain('Hello Ada,');
    expect(receipt!.text).toContain('We received your payment of $49.00.');
    const [paid] = (await polar.orders.list({ customerId: customer.id })).result.items;
    expect(receipt!.text).toContain(`Order number: ${paid!.id.slice(0, 8).toUpperCase()}`);
    expect(receipt!.text).toContain('Priority support: Write to vip@seller.test with your order number.');
    expect(receipt!.text).not.toContain('No note');
    // The link signs the buyer straight into the portal.
    const link = /(http\S+customer_session_token=(\S+))/.exec(receipt!.text);
    expect(link?.[1]).toContain(`${env.stack.baseUrl}/portal/${organization.slug}?customer_session_token=`);
    const me = await new Polar({ serverURL: env.stack.baseUrl }).customerPortal.customers.get({
      customerSession: decodeURIComponent(link![2]!),
    });
    expect(me.id).toBe(customer.id);

    // A refund that goes through is confirmed to the buyer once.
    const [order] = (await polar.orders.list({ customerId: customer.id })).result.items;
    await polar.refunds.create({ orderId: order!.id, reason: 'customer_request', amount: 1000 });
    const [, refunded] = await eventually(
      () => emailsTo('ada@example.test'),
      (emails) => emails.length === 2,
    );
    expect(refunded!.subject).toBe('Your refund for Desk lamp');
    expect(refunded!.text).toContain('refunded $10.00 for Desk lamp.');
  });

  it("a plan's first email (started) carries the note, and no second receipt is sent for it", async () => {
    const { polar, withNotes } = await sellerWithNote();
    const plan = await withNotes(
      await polar.products.create({
        name: 'Pro',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      }),
    );
    const customer = await polar.customers.create({ email: 'lin@example.test' });
    await buyInSandbox(polar, env.stack.baseUrl, plan.id, customer.id);
    const [started] = await eventually(
      () => emailsTo('lin@example.test'),
      (emails) => emails.length >= 1,
    );
    expect(started!.subject).toBe('Your Pro subscription has started');
    expect(started!.text).toContain('Priority support: Write to vip@seller.test with your order number.');
    const token = /customer_session_token=(\S+)/.exec(started!.text)?.[1];
    const me = await new Polar({ serverURL: env.stack.baseUrl }).customerPortal.customers.get({
      customerSession: decodeURIComponent(token!),
    });
    expect(me.id).toBe(customer.id);
    // Nothing else arrives for the first payment.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await emailsTo('lin@example.test')).map((email) => email.subject)).toEqual([
      'Your Pro subscription has started',
    ]);
  });
});
