import { describe, expect, it } from '@jest/globals';
import { Polar as Polar0332 } from '@polar-sh/sdk';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// `subscriptions.create` (a free plan, no checkout) and `customers.listPaymentMethodsExternal`
// through @polar-sh/sdk@0.48.1 with its response validation on; refusals over raw HTTP. 0.48.1
// reads a `price_currency` on free prices, which Tollgate's free price does not have yet, so its
// products and subscriptions of free plans fail its validation: the subscription is created over
// HTTP and read back through 0.33.2, whose validation it passes.
describe('subscriptions.create and customers.listPaymentMethodsExternal', () => {
  const env = useTestStack();

  async function seller(name = 'Acme') {
    const organization = await createOrganization(env.database.db, { name });
    const token = await createAccessToken(env.database.db, organization.id);
    return {
      organization,
      token,
      polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }),
      legacy: new Polar0332({ accessToken: token, serverURL: env.stack.baseUrl }),
    };
  }

  const freePlan = async (token: string) => {
    const answer = await callV1(env.stack.baseUrl, token, 'POST', '/products/', {
      name: 'Community',
      recurring_interval: 'month',
      prices: [{ amount_type: 'free' }],
    });
    expect(answer.status).toBe(201);
    return answer.body as { id: string };
  };

  describe('subscriptions.create', () => {
    it('subscribes a customer to a free plan, by id or by external id, and runs its workflow', async () => {
      const { polar, legacy, token } = await seller();
      const plan = await freePlan(token);
      const customer = await polar.customers.create({ email: 'ada@example.test', externalId: 'crm-1' });
      const answer = await callV1(env.stack.baseUrl, token, 'POST', '/subscriptions/', {
        product_id: plan.id,
        customer_id: customer.id,
        metadata: { source: 'signup' },
      });
      expect(answer.status).toBe(201);
      const created = await legacy.subscriptions.get({ id: (answer.body as { id: string }).id });
      expect(created).toMatchObject({
        status: 'active',
        amount: 0,
        productId: plan.id,
        customerId: customer.id,
        cancelAtPeriodEnd: false,
        metadata: { source: 'signup' },
        checkoutId: null,
      });
      expect(created.currentPeriodEnd!.getTime() - created.currentPeriodStart.getTime()).toBeGreaterThan(
        27 * 86_400_000,
      );
      // The customer holds it, and its workflow runs like any other subscription's.
      const state = await eventually(
        () => polar.customers.getState({ id: customer.id }),
        (value) => value.activeSubscriptions.length === 1,
      );
      expect(state.activeSubscriptions[0]!.id).toBe(created.id);
      const workflow = await env.stack.temporal.workflow.getHandle(`subscription:${created.id}`).describe();
      expect(workflow.status.name).toBe('RUNNING');

      const other = await polar.customers.create({ email: 'bo@example.test', externalId: 'crm-2' });
      const byExternal = await callV1(env.stack.baseUrl, token, 'POST', '/subscriptions/', {
        product_id: plan.id,
        external_customer_id: 'crm-2',
      });
      expect(byExternal.status).toBe(201);
      expect((byExternal.body as { customer_id: string }).customer_id).toBe(other.id);
    });

    it("refuses a paid plan in Polar's words, a one-time product, and unknown products and customers", async () => {
      const { token, polar } = await seller();
      const paid = await polar.products.create({
        name: 'Pro',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      });
      const oneTime = (
        await callV1(env.stack.baseUrl, token, 'POST', '/products/', {
          name: 'E-book',
          prices: [{ amount_type: 'free' }],
        })
      ).body as { id: string };
      const customer = await polar.customers.create({ email: 'kim@example.test' });
      const create = (body: unknown) => callV1(env.stack.baseUrl, token, 'POST', '/subscriptions/', body);

      const refusedPaid = await create({ product_id: paid.id, customer_id: customer.id });
      expect(refusedPaid.status).toBe(422);
      expect(refusedPaid.body.detail).toEqual([
        {
          loc: ['body', 'product_id'],
          msg: 'Product is not free. The customer should go through a checkout to create a paid subscription.',
          type: 'value_error',
        },
      ]);
      const refusedOneTime = await create({ product_id: oneTime.id, customer_id: customer.id });
      expect(refusedOneTime.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'product_id'], msg: 'Product is not a recurring product.' }),
      ]);
      // Every problem at once, as Polar lists them.
      const unknown = await create({
        product_id: '00000000-0000-4000-8000-000000000000',
        external_customer_id: 'nobody',
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'product_id'], msg: 'Product does not exist.' }),
        expect.objectContaining({ loc: ['body', 'external_customer_id'], msg: 'Customer does not exist.' }),
      ]);
      const plan = await freePlan(token);
      const missingCustomer = await create({
        product_id: plan.id,
        customer_id: '00000000-0000-4000-8000-000000000000',
      });
      expect(missingCustomer.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'customer_id'], msg: 'Customer does not exist.' }),
      ]);
      const malformed = await create({ product_id: plan.id });
      expect(malformed.status).toBe(422);
      expect((await polar.subscriptions.list({})).result.items).toEqual([]);
    });
  });

  describe('customers.listPaymentMethodsExternal', () => {
    it("lists the cards of a customer named by external id; another organization's answers 404", async () => {
      const { polar, organization } = await seller();
      const other = await seller('Other');
      const customer = await polar.customers.create({ email: 'lin@example.test', externalId: 'crm-9' });
      await env.database.db.customerPaymentMethod.create({
        data: {
          organizationId: organization.id,
          customerId: customer.id,
          processor: 'sandbox',
          processorPaymentMethodId: 'pm_card_visa',
          processorCustomerId: 'cus_sbx_test',
          brand: 'visa',
          last4: '4242',
          expMonth: 8,
          expYear: 2031,
          isDefault: true,
        },
      });
      const page = await polar.customers.listPaymentMethodsExternal({ externalId: 'crm-9' });
      expect(page.result.items).toEqual([expect.objectContaining({ type: 'card' })]);
      expect(page.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
      const byId = await polar.customers.listPaymentMethods({ id: customer.id });
      expect(page.result.items).toEqual(byId.result.items);
      const foreign = await callV1(
        env.stack.baseUrl,
        other.token,
        'GET',
        '/customers/external/crm-9/payment-methods',
      );
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ResourceNotFound');
    });
  });
});
