import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// Saving a card whose bank asks the buyer to confirm it (3-D Secure on setup), through
// @polar-sh/sdk@0.48.1's customerPortal.customers.addPaymentMethod and confirmPaymentMethod with
// its response validation: the add answers the bank's step, the confirm saves the card after it.
describe('3-D Secure when saving a card in the portal (through @polar-sh/sdk@0.48.1)', () => {
  const env = useTestStack();
  const portal = () => new Polar({ serverURL: env.stack.baseUrl }).customerPortal.customers;

  async function signedIn(email = 'ada@example.test') {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const customer = await polar.customers.create({ email, name: 'Ada' });
    const session = await polar.customerSessions.create({ customerId: customer.id });
    return { token, polar, customer, session, security: { customerSession: session.token } };
  }

  const add = (security: { customerSession: string }, card: string, setDefault = true) =>
    portal().addPaymentMethod(security, {
      confirmationTokenId: card,
      setDefault,
      returnUrl: 'https://seller.example/billing',
    });

  /** The buyer's answer on the sandbox's bank page. */
  const answerBank = (clientSecret: string, outcome: 'complete' | 'fail') =>
    fetch(`${env.stack.baseUrl}/api/sandbox/payments/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: clientSecret, outcome }),
    });

  const setupIdOf = (clientSecret: string) => clientSecret.slice(0, clientSecret.indexOf('_secret_'));

  const raw = async (sessionToken: string | null, body: unknown) => {
    const response = await fetch(
      `${env.stack.baseUrl}/v1/customer-portal/customers/me/payment-methods/confirm`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(sessionToken ? { authorization: `Bearer ${sessionToken}` } : {}),
        },
        body: JSON.stringify(body),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('a card that needs no confirmation is saved at once: {status: succeeded, payment_method}', async () => {
    const { security, customer } = await signedIn();
    const saved = await add(security, 'pm_card_visa');
    expect(saved).toMatchObject({
      status: 'succeeded',
      paymentMethod: {
        type: 'card',
        customerId: customer.id,
        processor: 'stripe',
        methodMetadata: { brand: 'visa', last4: '4242' },
      },
    });
  });

  it('a card whose bank asks answers requires_action; after the bank page, confirm saves it as the default', async () => {
    const { security, customer, polar } = await signedIn();
    const asked = await add(security, 'pm_card_authenticationRequiredOnSetup');
    expect(asked).toEqual({ status: 'requires_action', clientSecret: expect.stringMatching(/^seti_/) });
    if (asked.status !== 'requires_action') throw new Error('no bank step');
    const setupIntentId = setupIdOf(asked.clientSecret);
    // Nothing is kept before the buyer confirms.
    expect((await polar.customers.listPaymentMethods({ id: customer.id })).result.items).toEqual([]);

    // Confirming before the bank's page is done is refused, and keeps the setup open.
    const early = await raw(security.customerSession, { setup_intent_id: setupIntentId, set_default: true });
    expect(early).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'setup_intent_id'],
            msg: 'Your bank has not confirmed this card. Try another card.',
            type: 'value_error',
          },
        ],
      },
    });

    expect((await answerBank(asked.clientSecret, 'complete')).status).toBe(200);
    const confirmed = await portal().confirmPaymentMethod(security, { setupIntentId, setDefault: true });
    expect(confirmed).toMatchObject({
      status: 'succeeded',
      paymentMethod: { type: 'card', customerId: customer.id, methodMetadata: { last4: '3155' } },
    });
    const listed = (await polar.customers.listPaymentMethods({ id: customer.id })).result.items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ isDefault: true });
    // Confirming again keeps the one card.
    await portal().confirmPaymentMethod(security, { setupIntentId, setDefault: true });
    expect((await polar.customers.listPaymentMethods({ id: customer.id })).result.items).toHaveLength(1);
  });

  it('a bank check the buyer failed saves nothing', async () => {
    const { security, customer, polar } = await signedIn();
    const asked = await add(security, 'pm_card_authenticationRequiredOnSetup');
    if (asked.status !== 'requires_action') throw new Error('no bank step');
    await answerBank(asked.clientSecret, 'fail');
    const refused = await raw(security.customerSession, {
      setup_intent_id: setupIdOf(asked.clientSecret),
      set_default: false,
    });
    expect(refused.status).toBe(422);
    expect((await polar.customers.listPaymentMethods({ id: customer.id })).result.items).toEqual([]);
  });

  it("another customer's setup is not theirs to save, even confirmed (422); anonymous and bad ids are refused", async () => {
    const ada = await signedIn('ada@example.test');
    const grace = await signedIn('grace@example.test');
    const asked = await add(ada.security, 'pm_card_authenticationRequiredOnSetup');
    if (asked.status !== 'requires_action') throw new Error('no bank step');
    await answerBank(asked.clientSecret, 'complete');
    const setupIntentId = setupIdOf(asked.clientSecret);
    const stolen = await raw(grace.session.token, { setup_intent_id: setupIntentId, set_default: true });
    expect(stolen.status).toBe(422);
    expect((await grace.polar.customers.listPaymentMethods({ id: grace.customer.id })).result.items).toEqual(
      [],
    );

    expect((await raw(null, { setup_intent_id: setupIntentId, set_default: true })).status).toBe(401);
    expect((await raw(ada.token, { setup_intent_id: setupIntentId, set_default: true })).status).toBe(401);
    const malformed = await raw(ada.session.token, { setup_intent_id: 'pi_123', set_default: true });
    expect(malformed.status).toBe(422);
    expect((malformed.body.detail as { loc: string[] }[])[0]!.loc).toEqual(['body', 'setup_intent_id']);
    expect((await raw(ada.session.token, { setup_intent_id: setupIntentId })).status).toBe(422);
    // Ada's own confirm still works.
    expect(
      (await portal().confirmPaymentMethod(ada.security, { setupIntentId, setDefault: true })).status,
    ).toBe('succeeded');
  });
});
