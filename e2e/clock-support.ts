// A seller signed up in the browser with an API token, and a buyer subscribed to a plan on a test
// clock of their own: what the subscription-lifecycle browser tests start from.
import { Polar } from '@polar-sh/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually } from '../test/eventually.js';
import { buyInSandbox, createAccessToken } from '../test/factories.js';
import { recordPolicyViolations, signUpSeller, type BrowserStack } from './support.js';

/** A clock's catch-up and the renewal it charges take seconds; a loaded machine takes longer. */
export const WORKFLOW_TIMEOUT_MS = 90_000;
/** The width of the phones the portal is checked at. */
export const PHONE = { width: 390, height: 844 };

type Json = { id: string; status: string } & Record<string, unknown>;

/** Signs the seller up in a browser context of its own (from `address`) and opens the API to it. */
export async function sellerOnClock(
  env: BrowserStack,
  seller: { firstName: string; suffix: string; organizationName: string; address: string },
  policyViolations: string[],
) {
  const context: BrowserContext = await env.browser.newContext({
    locale: 'en-US',
    extraHTTPHeaders: { 'x-forwarded-for': seller.address },
  });
  recordPolicyViolations(context, policyViolations);
  const page: Page = await context.newPage();
  await signUpSeller(page, env.baseUrl, seller);
  const organization = await env.database.db.organization.findFirstOrThrow({
    where: { name: seller.organizationName },
  });
  const token = await createAccessToken(env.database.db, organization.id);
  const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
  /** The payments API over plain HTTP, for the fields and extensions 0.33.2 does not have. */
  const api = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const response = await fetch(`${env.baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Json;
  };
  const monthlyPlan = (name: string, amount: number) =>
    polar.products.create({
      name,
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
    });

  /** A buyer on a clock frozen at `frozenTime`, subscribed to `productId` with the sandbox's card. */
  async function subscribeOnClock(
    productId: string,
    buyer: { email: string; name: string },
    frozenTime: string,
  ) {
    const clock = await api('POST', '/test-clocks/', { name: buyer.name, frozen_time: frozenTime });
    const customer = await polar.customers.create(buyer);
    await api('POST', `/test-clocks/${clock.id}/customers`, { customer_id: customer.id });
    const { subscriptionId } = await buyInSandbox(polar, env.baseUrl, productId, customer.id);
    /** Moves the clock to `frozenTime` and waits until every workflow on it has caught up. */
    const advanceTo = async (to: string) => {
      await api('POST', `/test-clocks/${clock.id}/advance`, { frozen_time: to });
      await eventually(
        () => api('GET', `/test-clocks/${clock.id}`),
        (value) => value.status === 'ready',
        WORKFLOW_TIMEOUT_MS,
      );
    };
    return { clock, customer, subscriptionId: subscriptionId!, advanceTo };
  }

  return { page, organization, token, polar, api, monthlyPlan, subscribeOnClock };
}
