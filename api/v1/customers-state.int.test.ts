// Customer state read in one plain statement (`getCustomerState`) and in a transaction
// (`customerState`, the state recorded with a change) against the computation it replaced: one
// Prisma read per table, kept here as the reference.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { CustomerState$inboundSchema } from '@polar-sh/sdk/models/components/customerstate.js';
import type { Caller } from '../../domain/access/rules.js';
import { refreshStaleCustomerMeters } from '../../domain/customer-meters/service.js';
import type { CustomerRow } from '../../domain/customers/repository.js';
import { findCustomerFor } from '../../domain/customers/service.js';
import { findLiveCustomerWithHoldings } from '../../domain/customer-state/repository.js';
import type { CustomerState } from '../../domain/customer-state/schemas.js';
import { customerState, getCustomerState } from '../../domain/customer-state/service.js';
import { customerStateView } from '../../domain/customer-state/views.js';
import { startSubscription } from '../../domain/subscriptions/service.js';
import { insertEvents } from '../../domain/usage/repository.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import {
  createAccessToken,
  createBenefit,
  createCustomer,
  createDiscount,
  createMemberUser,
  createOrganization,
  createProduct,
} from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

type Client = Db | Prisma.TransactionClient;

/** What the state held before, read as it was: one Prisma statement per table. */
async function previousHoldings(db: Client, customerId: string) {
  const grants = await db.benefitGrant.findMany({
    where: { customerId, grantedAt: { not: null }, revokedAt: null, benefit: { deletedAt: null } },
    include: { benefit: { select: { type: true, metadata: true } } },
    orderBy: { grantedAt: 'asc' },
  });
  const subscriptions = await db.subscription.findMany({
    where: { customerId, status: { in: ['active'] }, startedAt: { not: null } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { meters: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
  const meters = await db.customerMeter.findMany({ where: { customerId }, orderBy: { createdAt: 'asc' } });
  return { grants, subscriptions, meters };
}

/** The state as it was computed before (the reference): the same view over the former reads. */
async function previousCustomerState(db: Client, row: CustomerRow): Promise<CustomerState> {
  return customerStateView(row, await previousHoldings(db, row.id));
}

const tokenCaller = (organizationId: string): Caller => ({
  kind: 'organization_access_token',
  tokenId: randomUUID(),
  organizationId,
  createdById: null,
  scopes: [],
});

const minutesAgo = (minutes: number, ms = 0) => new Date(Date.now() - minutes * 60_000 + ms);

describe('customer state (getCustomerState, customerState)', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  /** A meter whose id sorts before or after the others', to tell the order of creation from the ids'. */
  function createCountMeter(organizationId: string, name: string, id: string) {
    return env.database.db.meter.create({
      data: {
        id,
        organizationId,
        name,
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: name }] },
        aggregation: { func: 'count' },
      },
    });
  }

  /**
   * A customer with every ingredient of a state: plans on fixed, free, custom and metered prices (one
   * discounted, one set to cancel, one canceled), granted, revoked, pending and deleted benefits,
   * customer meters with usage and credits, metadata, an external id, an address, a tax id.
   */
  async function customerWithEverything() {
    const { db } = env.database;
    const { organization, token, polar } = await seller();
    const externalId = `user-${randomUUID()}`;
    const customer = await createCustomer(polar, {
      externalId,
      name: 'Ada Lovelace',
      metadata: { plan: 'pro', seats: 3, vip: true, ratio: 0.25 },
      billingAddress: { country: 'DE', city: 'Berlin', postalCode: '10115', line1: 'Street 1' },
      taxId: ['DE123456789', 'eu_vat'],
    });
    // Used (so created as customer meters) in this order, with ids in the opposite one.
    const [smaller, larger] = [randomUUID(), randomUUID()].sort();
    const calls = await createCountMeter(organization.id, 'api_call', larger!);
    const logins = await createCountMeter(organization.id, 'login', smaller!);

    const month = { recurringInterval: 'month' } as const;
    const fixed = await createProduct(polar, {
      ...month,
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const free = await createProduct(polar, { ...month, prices: [{ amountType: 'free' }] });
    const custom = await createProduct(polar, {
      ...month,
      prices: [{ amountType: 'custom', priceCurrency: 'usd', minimumAmount: 500, presetAmount: 1000 }],
    });
    const metered = await createProduct(polar, {
      ...month,
      prices: [
        { amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' },
        {
          amountType: 'metered_unit',
          meterId: calls.id,
          priceCurrency: 'usd',
          unitAmount: '0.35',
          capAmount: 10000,
        },
        { amountType: 'metered_unit', meterId: logins.id, priceCurrency: 'usd', unitAmount: '2' },
      ],
    });
    const discount = await createDiscount(polar, { duration: 'forever', basisPoints: 1000 });

    // Started out of the order of their creation times, so that the order read is theirs.
    const plans = [
      { product: fixed, amount: 1350, discountId: discount.id, at: minutesAgo(50, 123) },
      { product: custom, amount: 2000, discountId: null, at: minutesAgo(59, 7) },
      { product: free, amount: 0, discountId: null, at: minutesAgo(55, 999) },
      { product: metered, amount: 900, discountId: null, at: minutesAgo(58, 1) },
      { product: fixed, amount: 1500, discountId: null, at: minutesAgo(57, 500) },
    ];
    const subscriptionIds: string[] = [];
    for (const [index, plan] of plans.entries()) {
      const row = await db.$transaction((tx) =>
        startSubscription(
          tx,
          {
            organizationId: organization.id,
            customerId: customer.id,
            productId: plan.product.id,
            checkoutId: null,
            recurringInterval: 'month',
            currency: 'usd',
            prices: plan.product.prices.map((price, position) => ({
              productPriceId: price.id,
              amount: position === 0 ? plan.amount : 0,
            })),
            amount: plan.amount,
            discountId: plan.discountId,
            metadata: { index, label: `plan ${index}`, nested: { deep: [1, 'two', null] } },
            customFieldData: index === 1 ? { company: 'Analytical Engines' } : {},
            paymentProcessor: 'sandbox',
            savedPaymentMethod:
              index === 0
                ? {
                    paymentMethodId: 'pm_1',
                    processorCustomerId: 'cus_1',
                    summary: { brand: 'visa', last4: '4242' },
                    expiry: { month: 12, year: 2030 },
                  }
                : null,
            at: plan.at,
          },
          env.stack.baseUrl,
        ),
      );
      subscriptionIds.push(row.id);
    }
    await db.subscription.update({
      where: { id: subscriptionIds[2]! },
      data: {
        cancelAtPeriodEnd: true,
        canceledAt: minutesAgo(10),
        endsAt: minutesAgo(-30 * 24 * 60),
        customerCancellationReason: 'too_expensive',
        customerCancellationComment: 'Zu teuer — sorry',
      },
    });
    await db.subscription.update({
      where: { id: subscriptionIds[4]! },
      data: { status: 'canceled', canceledAt: minutesAgo(9), endedAt: minutesAgo(9) },
    });

    const benefits = await Promise.all(
      ['first', 'second', 'revoked', 'pending', 'deleted'].map((note) =>
        createBenefit(polar, { description: `Benefit ${note}` }),
      ),
    );
    const grant = (index: number, data: Partial<Prisma.BenefitGrantUncheckedCreateInput>) =>
      db.benefitGrant.create({ data: { benefitId: benefits[index]!.id, customerId: customer.id, ...data } });
    await grant(0, {
      grantedAt: minutesAgo(20, 456),
      properties: { note: 'Ünïcödé ✓', limits: { calls: 1000, ratio: 1.5 }, tags: ['a', 'b'] },
      subscriptionId: subscriptionIds[0]!,
    });
    await grant(1, { grantedAt: minutesAgo(40), properties: {} });
    await grant(2, { grantedAt: minutesAgo(45), revokedAt: minutesAgo(5), properties: {} });
    await grant(3, { properties: {}, error: { message: 'later', type: 'x', timestamp: 'now' } });
    await grant(4, { grantedAt: minutesAgo(30), properties: {} });
    await polar.benefits.delete({ id: benefits[4]!.id });

    // Usage and credits, counted by the refresher's rounds (this stack has no worker to run them):
    // the calls meter first, the logins meter in a later round. Some credits are dated before the
    // metered plan began: they count for the customer's meters, not for the plan's.
    const credit = (meterId: string, units: number, minutes: number) => ({
      organizationId: organization.id,
      name: 'meter.credited',
      source: 'system',
      timestamp: minutesAgo(minutes),
      customerId: customer.id,
      externalCustomerId: null,
      externalId: null,
      metadata: { meter_id: meterId, units, rollover: false },
    });
    await polar.events.ingest({
      events: [
        { name: 'api_call', customerId: customer.id },
        { name: 'api_call', externalCustomerId: externalId },
        { name: 'api_call', customerId: customer.id },
      ],
    });
    await insertEvents(db.sql, [credit(calls.id, 100, 59.5), credit(calls.id, 12345678, 1)]);
    await refreshStaleCustomerMeters(db);
    await polar.events.ingest({ events: [{ name: 'login', customerId: customer.id }] });
    await insertEvents(db.sql, [credit(logins.id, 2, 59.5)]);
    await refreshStaleCustomerMeters(db);

    const row = await db.customer.findUniqueOrThrow({ where: { id: customer.id } });
    return { organization, token, polar, customer: row, externalId, calls, logins, benefits };
  }

  it('equals the per-table computation for a customer with everything, by id and external id, through the SDK', async () => {
    const { db } = env.database;
    const { organization, token, polar, customer, externalId, calls, logins, benefits } =
      await customerWithEverything();
    const caller = tokenCaller(organization.id);
    const reference = await previousCustomerState(db, customer);

    // The ingredients are all there.
    expect(reference.active_subscriptions).toHaveLength(4);
    expect(reference.active_subscriptions.map((plan) => (plan.metadata as { index: number }).index)).toEqual([
      1, 3, 2, 0,
    ]);
    expect(reference.granted_benefits.map((grant) => [grant.benefit_id, grant.benefit_type])).toEqual([
      [benefits[1]!.id, 'custom'],
      [benefits[0]!.id, 'custom'],
    ]);
    expect(reference.active_meters.map((meter) => meter.meter_id)).toEqual([calls.id, logins.id]);
    expect(reference.active_meters[0]).toMatchObject({
      consumed_units: 3,
      credited_units: 12345778,
    });
    expect(reference.active_meters[1]).toMatchObject({ consumed_units: 1, credited_units: 2, balance: 1 });
    expect(reference.active_subscriptions[1]!.meters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ meter_id: calls.id, consumed_units: 3, credited_units: 12345678 }),
        expect.objectContaining({ meter_id: logins.id, consumed_units: 1, credited_units: 0, amount: 2 }),
      ]),
    );

    expect(await getCustomerState(db, caller, { id: customer.id })).toStrictEqual(reference);
    expect(await getCustomerState(db, caller, { externalId })).toStrictEqual(reference);
    // What was read before the view, field by field: Dates, Decimals, JSON, order.
    const found = await findLiveCustomerWithHoldings(db.sql, [organization.id], { id: customer.id });
    expect(found).toStrictEqual({ customer, holdings: await previousHoldings(db, customer.id) });

    // In a transaction (the state recorded with a change) the same statement gives the same.
    expect(await db.$transaction((tx) => customerState(tx, customer))).toStrictEqual(reference);

    // On the wire and through the SDK's validation.
    const json = JSON.parse(JSON.stringify(reference)) as unknown;
    expect(await callV1(env.stack.baseUrl, token, 'GET', `/customers/${customer.id}/state`)).toEqual({
      status: 200,
      body: json,
    });
    expect(await callV1(env.stack.baseUrl, token, 'GET', `/customers/external/${externalId}/state`)).toEqual({
      status: 200,
      body: json,
    });
    const parsed = CustomerState$inboundSchema.parse(json);
    expect(await polar.customers.getState({ id: customer.id })).toEqual(parsed);
    expect(await polar.customers.getStateExternal({ externalId })).toEqual(parsed);

    // The refresher's last round recorded this state through the transactional path.
    const [lastChange] = await db.outboxEvent.findMany({
      where: { organizationId: organization.id, type: 'customer.state_changed' },
      orderBy: { sequence: 'desc' },
      take: 1,
    });
    expect((lastChange!.payload as { data: unknown }).data).toEqual(json);

    // Decimals with more digits than a double holds come back whole.
    const digits = '12345678901234567890.123456789012345678901234567891';
    const [meter] = found!.holdings.meters;
    await db.customerMeter.update({ where: { id: meter!.id }, data: { creditedUnits: digits } });
    const [subscriptionMeter] = found!.holdings.subscriptions[1]!.meters;
    await db.subscriptionMeter.update({
      where: { id: subscriptionMeter!.id },
      data: { consumedUnits: digits },
    });
    const precise = await findLiveCustomerWithHoldings(db.sql, [organization.id], { externalId });
    const previous = await previousHoldings(db, customer.id);
    expect(precise!.holdings.meters).toStrictEqual(previous.meters);
    expect(precise!.holdings.meters[0]!.creditedUnits.toFixed()).toBe(digits);
    // Prisma read an include's decimals through a double (its relation joins carry the nested rows
    // as JSON numbers); the plain statement keeps every digit. The wire shows a double either way.
    expect(precise!.holdings.subscriptions[1]!.meters[0]!.consumedUnits.toFixed()).toBe(digits);
    expect(previous.subscriptions[1]!.meters[0]!.consumedUnits.toNumber()).toBe(Number(digits));
    expect(await getCustomerState(db, caller, { id: customer.id })).toStrictEqual(
      await previousCustomerState(db, customer),
    );
  });

  it('equals the per-table computation for a customer who holds nothing', async () => {
    const { db } = env.database;
    const { organization, polar } = await seller();
    const created = await createCustomer(polar);
    const customer = await db.customer.findUniqueOrThrow({ where: { id: created.id } });
    const reference = await previousCustomerState(db, customer);
    expect(reference).toMatchObject({ active_subscriptions: [], granted_benefits: [], active_meters: [] });
    expect(await getCustomerState(db, tokenCaller(organization.id), { id: customer.id })).toStrictEqual(
      reference,
    );
    expect(await db.$transaction((tx) => customerState(tx, customer))).toStrictEqual(reference);
    expect(await polar.customers.getState({ id: customer.id })).toMatchObject({ id: customer.id });
  });

  it('lists meters that one round created together in the order of the meters', async () => {
    const { db } = env.database;
    const { organization, polar } = await seller();
    const customer = await createCustomer(polar);
    const meterIds = [randomUUID(), randomUUID(), randomUUID()];
    for (const [index, id] of meterIds.entries()) await createCountMeter(organization.id, `m${index}`, id);
    await polar.events.ingest({
      events: ['m2', 'm0', 'm1'].map((name) => ({ name, customerId: customer.id })),
    });
    await refreshStaleCustomerMeters(db);
    const state = await getCustomerState(db, tokenCaller(organization.id), { id: customer.id });
    expect(new Set(state.active_meters.map((meter) => meter.created_at)).size).toBe(1);
    expect(state.active_meters.map((meter) => meter.meter_id)).toEqual([...meterIds].sort());
  });

  it('is not found for a deleted customer, by id or external id, as before; its last state is recorded', async () => {
    const { db } = env.database;
    const { organization, token, polar, customer, externalId } = await customerWithEverything();
    await polar.customers.delete({ id: customer.id });
    const caller = tokenCaller(organization.id);
    const notFound = { errorName: 'ResourceNotFound', status: 404 };
    for (const ref of [{ id: customer.id }, { externalId }]) {
      await expect(getCustomerState(db, caller, ref)).rejects.toMatchObject(notFound);
      await expect(findCustomerFor(db, caller, ref)).rejects.toMatchObject(notFound);
    }
    expect((await callV1(env.stack.baseUrl, token, 'GET', `/customers/${customer.id}/state`)).status).toBe(
      404,
    );
    await expect(polar.customers.getStateExternal({ externalId })).rejects.toMatchObject({ statusCode: 404 });

    // The state recorded with the deletion still shows what they held, as it did.
    const deleted = await db.customer.findUniqueOrThrow({ where: { id: customer.id } });
    const reference = await previousCustomerState(db, deleted);
    expect(reference.deleted_at).not.toBeNull();
    expect(reference.active_subscriptions).toHaveLength(4);
    expect(await db.$transaction((tx) => customerState(tx, deleted))).toStrictEqual(reference);
    const [lastChange] = await db.outboxEvent.findMany({
      where: { organizationId: organization.id, type: 'customer.state_changed' },
      orderBy: { sequence: 'desc' },
      take: 1,
    });
    expect((lastChange!.payload as { data: unknown }).data).toEqual(JSON.parse(JSON.stringify(reference)));
  });

  it('never shows another organization’s customer, by id or by a shared external id', async () => {
    const { db } = env.database;
    const mine = await seller();
    const theirs = await seller();
    const externalId = `shared-${randomUUID()}`;
    const own = await createCustomer(mine.polar, { externalId });
    const other = await createCustomer(theirs.polar, { externalId });

    await expect(mine.polar.customers.getState({ id: other.id })).rejects.toMatchObject({ statusCode: 404 });
    expect((await mine.polar.customers.getStateExternal({ externalId })).id).toBe(own.id);
    expect((await theirs.polar.customers.getStateExternal({ externalId })).id).toBe(other.id);

    // A signed-in member sees their organizations' customers only.
    const member = await createMemberUser(db, mine.organization.id, 'member');
    const user: Caller = { kind: 'user_session', userId: member.id, sessionId: randomUUID() };
    expect((await getCustomerState(db, user, { id: own.id })).id).toBe(own.id);
    expect((await getCustomerState(db, user, { externalId })).id).toBe(own.id);
    await expect(getCustomerState(db, user, { id: other.id })).rejects.toMatchObject({ status: 404 });
    const stranger = await createMemberUser(db, (await createOrganization(db)).id, 'owner');
    await expect(
      getCustomerState(
        db,
        { kind: 'user_session', userId: stranger.id, sessionId: randomUUID() },
        { externalId },
      ),
    ).rejects.toMatchObject({ status: 404 });
  });
});
