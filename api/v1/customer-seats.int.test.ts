// Customer seats through @polar-sh/sdk@0.48.1 (docs/seats.md): the buyer of a seat-based plan or
// order gives seats by email, the invited person claims theirs from the emailed link (no sign-in:
// the link is the key) and holds the product's benefits until the seat is revoked or the plan
// ends; the buyer holds them only through a seat of their own. Refusals change nothing.
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';
import { buyOnNewClock } from '../../test/test-clocks.js';

describe('customer seats', () => {
  const env = useTestStack({ withWorker: true });
  const anonymous = () => new Polar({ serverURL: env.stack.baseUrl });

  async function seller(options: { recurring?: boolean } = {}) {
    const organization = await createOrganization(env.database.db, { name: 'Seat Sellers' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const plan = await polar.products.create({
      name: 'Team plan',
      ...(options.recurring === false ? {} : { recurringInterval: 'month' as const }),
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 1, maxSeats: 10, pricePerSeat: 1000 }] },
        },
      ],
    });
    const benefit = await polar.benefits.create({ type: 'custom', description: 'Team chat', properties: {} });
    await polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    const call = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, token, method, path, body);
    return { organization, token, polar, plan, benefit, call };
  }

  /** Whether the customer holds the benefit now (a grant granted and not revoked). */
  const holds = async (customerId: string, benefitId: string) =>
    (await env.database.db.benefitGrant.findMany({ where: { customerId, benefitId } })).some(
      (grant) => grant.grantedAt !== null && grant.revokedAt === null,
    );

  /** The claim link's token of the newest invitation emailed to the address. */
  const invitationTo = async (address: string) => {
    const [message] = await env.database.db.emailMessage.findMany({
      where: { toAddress: address },
      orderBy: { createdAt: 'desc' },
    });
    const link = /https?:\/\/\S+\/claim\?invitation_token=([A-Za-z0-9_%-]+)/.exec(message?.text ?? '');
    expect(link).not.toBeNull();
    return { subject: message!.subject, token: decodeURIComponent(link![1]!) };
  };

  const eventsOf = async (organizationId: string, prefix: string) =>
    (
      await env.database.db.outboxEvent.findMany({
        where: { organizationId, type: { startsWith: prefix } },
        orderBy: { sequence: 'asc' },
      })
    ).map((event) => [event.type, (event.payload as { data: { id: string; status: string } }).data.status]);

  it('invites by email, the link claims the seat and its benefits; revoking takes them back', async () => {
    const { organization, token, polar, plan, benefit } = await seller();
    const { customer: buyer, subscriptionId } = await buyOnNewClock(
      polar,
      env.stack.baseUrl,
      token,
      plan.id,
      {
        seats: 3,
      },
    );
    const seat = await polar.customerSeats.assignSeat({ subscriptionId, email: 'Grace@Example.test' });
    expect(seat).toMatchObject({
      subscriptionId,
      orderId: null,
      status: 'pending',
      customerEmail: 'grace@example.test',
      claimedAt: null,
      memberId: null,
    });
    expect(seat.invitationTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(await polar.customerSeats.listSeats({ subscriptionId })).toMatchObject({
      totalSeats: 3,
      availableSeats: 2,
      seats: [{ id: seat.id, status: 'pending' }],
    });
    const invitation = await invitationTo('grace@example.test');
    expect(invitation.subject).toBe('Team gave you a seat of Team plan');

    // The claim page reads the invitation without signing in, then accepts it.
    expect(await anonymous().customerSeats.getClaimInfo({ invitationToken: invitation.token })).toEqual({
      productName: 'Team plan',
      productId: plan.id,
      organizationName: 'Seat Sellers',
      organizationSlug: organization.slug,
      customerEmail: 'grace@example.test',
      canClaim: true,
    });
    const claimed = await anonymous().customerSeats.claimSeat({ invitationToken: invitation.token });
    expect(claimed.seat).toMatchObject({ id: seat.id, status: 'claimed', customerId: seat.customerId });
    expect(claimed.seat.claimedAt).toBeInstanceOf(Date);
    // The answer signs the holder in to the portal: the session is theirs.
    const portal = await new Polar({ serverURL: env.stack.baseUrl }).customerPortal.customers.get({
      customerSession: claimed.customerSessionToken,
    });
    expect(portal).toMatchObject({ id: seat.customerId, email: 'grace@example.test' });
    // The holder's portal shows the plan their seat is on, not as a plan of their own.
    const holderPortal = new Polar({ serverURL: env.stack.baseUrl }).customerPortal;
    const holderSession = { customerSession: claimed.customerSessionToken };
    const held = await holderPortal.seats.listClaimedSubscriptions(holderSession, {});
    expect(held.result).toMatchObject({
      items: [{ id: subscriptionId, customerId: buyer.id, product: { id: plan.id } }],
      pagination: { totalCount: 1 },
    });
    expect((await holderPortal.subscriptions.list(holderSession, {})).result.pagination.totalCount).toBe(0);
    // The buyer holds no seat of their own plan.
    expect(
      (
        await holderPortal.seats.listClaimedSubscriptions(
          { customerSession: (await polar.customerSessions.create({ customerId: buyer.id })).token },
          {},
        )
      ).result.items,
    ).toEqual([]);
    await eventually(
      () => holds(seat.customerId!, benefit.id),
      (held) => held,
    );
    // Seats bought, none of them the buyer's: the buyer holds nothing as such.
    expect(await holds(buyer.id, benefit.id)).toBe(false);
    // The link works once.
    await expect(
      anonymous().customerSeats.claimSeat({ invitationToken: invitation.token }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
    const reused = await callV1(env.stack.baseUrl, '', 'POST', '/customer-seats/claim', {
      invitation_token: invitation.token,
    });
    expect(reused).toMatchObject({ status: 400, body: { error: 'InvalidInvitationToken' } });

    const revoked = await polar.customerSeats.revokeSeat({ seatId: seat.id });
    expect(revoked).toMatchObject({ id: seat.id, status: 'revoked', customerId: null, customerEmail: null });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    await eventually(
      () => holds(seat.customerId!, benefit.id),
      (held) => !held,
    );
    expect(await polar.customerSeats.listSeats({ subscriptionId })).toMatchObject({
      availableSeats: 3,
      seats: [],
    });
    expect((await holderPortal.seats.listClaimedSubscriptions(holderSession, {})).result.items).toEqual([]);
    expect(await eventsOf(organization.id, 'customer_seat.')).toEqual([
      ['customer_seat.assigned', 'pending'],
      ['customer_seat.claimed', 'claimed'],
      ['customer_seat.revoked', 'revoked'],
    ]);
  });

  it('gives no more seats than were bought, one per person, and refuses going below the seats given', async () => {
    const { polar, token, plan, benefit, call } = await seller();
    const { customer: buyer, subscriptionId } = await buyOnNewClock(
      polar,
      env.stack.baseUrl,
      token,
      plan.id,
      {
        seats: 2,
      },
    );
    // The buyer takes a seat of their own at once (the API's immediate claim: no email).
    const own = await polar.customerSeats.assignSeat({
      subscriptionId,
      customerId: buyer.id,
      immediateClaim: true,
    });
    expect(own).toMatchObject({ status: 'claimed', customerId: buyer.id });
    await eventually(
      () => holds(buyer.id, benefit.id),
      (held) => held,
    );
    const twice = await call('POST', '/customer-seats', {
      subscription_id: subscriptionId,
      customer_id: buyer.id,
    });
    expect(twice).toMatchObject({ status: 400, body: { error: 'SeatAlreadyAssigned' } });
    const unknown = await call('POST', '/customer-seats', {
      subscription_id: subscriptionId,
      external_customer_id: 'nobody',
    });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'CustomerNotFound' } });
    const both = await call('POST', '/customer-seats', {
      subscription_id: subscriptionId,
      email: 'a@example.test',
      customer_id: buyer.id,
    });
    expect(both.status).toBe(422);

    await polar.customerSeats.assignSeat({ subscriptionId, email: 'alan@example.test' });
    const full = await call('POST', '/customer-seats', {
      subscription_id: subscriptionId,
      email: 'ada@example.test',
    });
    expect(full).toMatchObject({
      status: 400,
      body: { error: 'SeatNotAvailable', detail: 'All 2 seats are given: revoke one or add seats first.' },
    });
    const fewer = await call('PATCH', `/subscriptions/${subscriptionId}`, { seats: 1 });
    expect(fewer).toMatchObject({
      status: 422,
      body: {
        detail: [
          expect.objectContaining({
            loc: ['body', 'seats'],
            msg: '2 seats are given to people: revoke one of them before going down to 1.',
          }),
        ],
      },
    });
    expect(await polar.subscriptions.get({ id: subscriptionId })).toMatchObject({ seats: 2 });
    // Nobody was created for the refused address.
    expect(await polar.customers.list({ email: 'ada@example.test' })).toMatchObject({
      result: { items: [] },
    });
  });

  it('resends with a new link (the old one stops working); a claimed seat has nothing to resend', async () => {
    const { polar, token, plan } = await seller();
    const { subscriptionId } = await buyOnNewClock(polar, env.stack.baseUrl, token, plan.id, { seats: 2 });
    const seat = await polar.customerSeats.assignSeat({ subscriptionId, email: 'linus@example.test' });
    const first = await invitationTo('linus@example.test');
    const resent = await polar.customerSeats.resendInvitation({ seatId: seat.id });
    expect(resent).toMatchObject({ id: seat.id, status: 'pending' });
    const second = await invitationTo('linus@example.test');
    expect(second.token).not.toBe(first.token);
    await expect(
      anonymous().customerSeats.getClaimInfo({ invitationToken: first.token }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
    await anonymous().customerSeats.claimSeat({ invitationToken: second.token });
    const again = await callV1(env.stack.baseUrl, token, 'POST', `/customer-seats/${seat.id}/resend`);
    expect(again).toMatchObject({ status: 400, body: { error: 'SeatNotPending' } });
  });

  it("a plan that ends revokes its seats; a one-time order's seats hold its benefits", async () => {
    const { organization, polar, token, plan, benefit } = await seller();
    const { subscriptionId } = await buyOnNewClock(polar, env.stack.baseUrl, token, plan.id, { seats: 2 });
    const seat = await polar.customerSeats.assignSeat({
      subscriptionId,
      email: 'margaret@example.test',
      immediateClaim: true,
      metadata: { team: 'apollo' },
    });
    expect(seat.seatMetadata).toEqual({ team: 'apollo' });
    await eventually(
      () => holds(seat.customerId!, benefit.id),
      (held) => held,
    );
    await polar.subscriptions.revoke({ id: subscriptionId });
    await eventually(
      () => holds(seat.customerId!, benefit.id),
      (held) => !held,
    );
    expect((await env.database.db.customerSeat.findUniqueOrThrow({ where: { id: seat.id } })).status).toBe(
      'revoked',
    );
    expect((await eventsOf(organization.id, 'customer_seat.')).at(-1)).toEqual([
      'customer_seat.revoked',
      'revoked',
    ]);
    const ended = await callV1(env.stack.baseUrl, token, 'POST', '/customer-seats', {
      subscription_id: subscriptionId,
      email: 'late@example.test',
    });
    expect(ended).toMatchObject({ status: 400, body: { error: 'SeatNotAvailable' } });

    const once = await seller({ recurring: false });
    const bought = await buyOnNewClock(once.polar, env.stack.baseUrl, once.token, once.plan.id, { seats: 2 });
    const [order] = (await once.polar.orders.list({ customerId: bought.customer.id })).result.items;
    const onOrder = await once.polar.customerSeats.assignSeat({
      orderId: order!.id,
      email: 'katherine@example.test',
      immediateClaim: true,
    });
    expect(onOrder).toMatchObject({ orderId: order!.id, subscriptionId: null, status: 'claimed' });
    await eventually(
      () => holds(onOrder.customerId!, once.benefit.id),
      (held) => held,
    );
    expect(await holds(bought.customer.id, once.benefit.id)).toBe(false);
  });

  it('is the seller’s alone: another organization finds nothing, a plan without seats has none, off is 403', async () => {
    const { organization, polar, token, plan, call } = await seller();
    const { subscriptionId } = await buyOnNewClock(polar, env.stack.baseUrl, token, plan.id, { seats: 2 });
    const other = await seller();
    expect(await other.call('GET', `/customer-seats?subscription_id=${subscriptionId}`)).toMatchObject({
      status: 404,
    });
    expect(
      await other.call('POST', '/customer-seats', {
        subscription_id: subscriptionId,
        email: 'x@example.test',
      }),
    ).toMatchObject({ status: 404 });
    const flat = await polar.products.create({
      name: 'Flat',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const onFlat = await buyOnNewClock(polar, env.stack.baseUrl, token, flat.id);
    expect(await call('GET', `/customer-seats?subscription_id=${onFlat.subscriptionId}`)).toMatchObject({
      status: 400,
      body: { error: 'SeatNotAvailable' },
    });
    expect(await call('GET', '/customer-seats')).toMatchObject({ status: 422 });

    const off = await polar.organizations.update({
      id: organization.id,
      organizationUpdate: { featureSettings: { seatBasedPricingEnabled: false } },
    });
    expect(off.featureSettings).toMatchObject({ seatBasedPricingEnabled: false });
    expect(await call('GET', `/customer-seats?subscription_id=${subscriptionId}`)).toMatchObject({
      status: 403,
      body: { error: 'FeatureNotEnabled' },
    });
  });

  it('in the portal, the buyer invites by email, re-sends and takes back their own seats, and no one else’s', async () => {
    const { polar, token, plan, call } = await seller();
    const bought = await buyOnNewClock(polar, env.stack.baseUrl, token, plan.id, { seats: 2 });
    const security = { customerSession: bought.customerSessionToken };
    const portal = anonymous().customerPortal.seats;
    const seat = await portal.assignSeat(security, {
      subscriptionId: bought.subscriptionId,
      email: 'dorothy@example.test',
    });
    expect(seat).toMatchObject({ status: 'pending', customerEmail: 'dorothy@example.test' });
    const first = await invitationTo('dorothy@example.test');
    expect(await portal.listSeats(security, { subscriptionId: bought.subscriptionId })).toMatchObject({
      totalSeats: 2,
      availableSeats: 1,
      seats: [{ id: seat.id }],
    });
    const resent = await portal.resendInvitation(security, { seatId: seat.id });
    expect(resent.status).toBe('pending');
    expect((await invitationTo('dorothy@example.test')).token).not.toBe(first.token);

    // The portal invites by email only, and only to the buyer's own purchases.
    const portalCall = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, bought.customerSessionToken, method, `/customer-portal${path}`, body);
    expect(
      await portalCall('POST', '/seats', {
        subscription_id: bought.subscriptionId,
        customer_id: bought.customer.id,
      }),
    ).toMatchObject({
      status: 422,
      body: {
        detail: [
          expect.objectContaining({
            loc: ['body', 'customer_id'],
            msg: 'Invite people by their email address.',
          }),
        ],
      },
    });
    const someoneElse = await buyOnNewClock(polar, env.stack.baseUrl, token, plan.id, { seats: 2 });
    expect(await portalCall('GET', `/seats?subscription_id=${someoneElse.subscriptionId}`)).toMatchObject({
      status: 404,
    });
    const theirs = await polar.customerSeats.assignSeat({
      subscriptionId: someoneElse.subscriptionId,
      email: 'edsger@example.test',
    });
    expect(await portalCall('DELETE', `/seats/${theirs.id}`)).toMatchObject({ status: 404 });
    expect(
      (await call('GET', `/customer-seats?subscription_id=${someoneElse.subscriptionId}`)).body,
    ).toMatchObject({
      seats: [{ id: theirs.id, status: 'pending' }],
    });

    const revoked = await portal.revokeSeat(security, { seatId: seat.id });
    expect(revoked.status).toBe('revoked');
    await expect(
      anonymous().customerSeats.getClaimInfo({ invitationToken: first.token }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});
