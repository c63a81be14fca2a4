import { Polar as PolarCurrent } from 'polar-sdk-0481';
import { eventually } from './eventually.js';
import { callV1 } from './http.js';

/**
 * Advances a test clock and waits until it is `ready` again. A subscription can show the new
 * state (paused, renewed) before the clock's other customers have caught up, and the API refuses
 * changes to a clocked subscription while its clock advances (409): a test that acts after an
 * advance waits for the clock, not for the one entity it watches.
 */
export async function advanceTestClock(
  baseUrl: string,
  token: string,
  clockId: string,
  frozenTime: string,
  timeoutMs = 60_000,
): Promise<void> {
  const advanced = await callV1(baseUrl, token, 'POST', `/test-clocks/${clockId}/advance`, {
    frozen_time: frozenTime,
  });
  if (advanced.status !== 202)
    throw new Error(`advance to ${frozenTime}: ${advanced.status} ${JSON.stringify(advanced.body)}`);
  await eventually(
    () => callV1(baseUrl, token, 'GET', `/test-clocks/${clockId}`),
    (answer) => answer.body.status === 'ready',
    timeoutMs,
  );
}

/**
 * A customer on a new test clock frozen at `frozenTime`, who bought `productId` (with `seats`
 * when its price is sold by the seat) with the sandbox's card, through @polar-sh/sdk@0.48.1 (the
 * first SDK whose response validation reads seat prices). `advanceTo` moves the clock and waits
 * for it.
 */
export async function buyOnNewClock(
  polar: PolarCurrent,
  baseUrl: string,
  token: string,
  productId: string,
  options: { seats?: number; frozenTime?: string } = {},
) {
  const clock = await callV1(baseUrl, token, 'POST', '/test-clocks/', {
    name: 'Buyer',
    frozen_time: options.frozenTime ?? '2026-03-01T09:00:00.000Z',
  });
  const clockId = clock.body.id as string;
  const customer = await polar.customers.create({ email: `buyer-${clockId}@example.test`, name: 'Team' });
  await callV1(baseUrl, token, 'POST', `/test-clocks/${clockId}/customers`, { customer_id: customer.id });
  const checkout = await polar.checkouts.create({
    products: [productId],
    customerId: customer.id,
    ...(options.seats === undefined ? {} : { seats: options.seats }),
  });
  const confirmed = await new PolarCurrent({ serverURL: baseUrl }).checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: {
      customerName: 'Team',
      customerBillingAddress: {
        country: 'DE',
        city: 'Berlin',
        postalCode: '10117',
        line1: 'Unter den Linden 1',
      },
      confirmationTokenId: 'pm_card_visa',
    },
  });
  await eventually(
    () => polar.checkouts.get({ id: checkout.id }),
    (value) => value.status === 'succeeded',
    60_000,
  );
  const [order] = (await polar.orders.list({ customerId: customer.id })).result.items;
  return {
    clockId,
    customer,
    subscriptionId: order!.subscriptionId!,
    customerSessionToken: confirmed.customerSessionToken!,
    advanceTo: (at: string) => advanceTestClock(baseUrl, token, clockId, at),
  };
}
