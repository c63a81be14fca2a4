import { describe, expect, it } from '@jest/globals';
import { Subscription$inboundSchema } from '@polar-sh/sdk/models/components/subscription.js';
import { SubscriptionUpdate$outboundSchema } from '@polar-sh/sdk/models/components/subscriptionupdate.js';
import { Subscription$inboundSchema as Subscription0481$inboundSchema } from 'polar-sdk-0481/models/components/subscription.js';
import { z } from 'zod';
import { orderSubscriptionSchema } from '../orders/schemas.js';
import { subscriptionListQuerySchema, subscriptionSchema, subscriptionUpdateSchema } from './schemas.js';
import { invalidInputFromZod } from '../platform/errors.js';

const at = '2026-01-31T10:00:00.000Z';
const ids = {
  subscription: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0001',
  organization: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0002',
  customer: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0003',
  product: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0004',
  price: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0005',
  meteredPrice: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0006',
  meter: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0007',
  discount: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0008',
  subscriptionMeter: '0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a0009',
};
const stamps = { created_at: at, modified_at: null };
const fixedPrice = {
  ...stamps,
  id: ids.price,
  is_archived: false,
  product_id: ids.product,
  type: 'recurring',
  recurring_interval: 'month',
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'fixed',
  price_currency: 'usd',
  price_amount: 1900,
};
const meteredPrice = {
  ...stamps,
  id: ids.meteredPrice,
  is_archived: false,
  product_id: ids.product,
  type: 'recurring',
  recurring_interval: 'month',
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'metered_unit',
  price_currency: 'usd',
  unit_amount: '0.5',
  cap_amount: null,
  meter_id: ids.meter,
  meter: { id: ids.meter, name: 'API calls', unit: 'scalar', custom_label: null, custom_multiplier: null },
};
const meter = {
  ...stamps,
  metadata: {},
  id: ids.meter,
  name: 'API calls',
  filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
  aggregation: { func: 'count' },
  organization_id: ids.organization,
  unit: 'scalar',
};

/** A monthly plan with a fixed and a metered price, a repeating discount, cancelled at period end. */
const wire = {
  ...stamps,
  id: ids.subscription,
  amount: 1520,
  currency: 'usd',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  status: 'active',
  current_period_start: at,
  current_period_end: '2026-02-28T10:00:00.000Z',
  trial_start: null,
  trial_end: null,
  current_meter_period_start: null,
  current_meter_period_end: null,
  cancel_at_period_end: true,
  pause_at_period_end: false,
  paused_at: null,
  resumes_at: null,
  units: null,
  canceled_at: '2026-02-10T08:00:00.000Z',
  started_at: at,
  ends_at: '2026-02-28T10:00:00.000Z',
  ended_at: null,
  past_due_at: null,
  customer_id: ids.customer,
  product_id: ids.product,
  discount_id: ids.discount,
  checkout_id: null,
  customer_cancellation_reason: 'too_expensive',
  customer_cancellation_comment: 'Over budget this quarter.',
  metadata: { plan: 'team', seats: 5 },
  custom_field_data: {},
  customer: {
    ...stamps,
    id: ids.customer,
    metadata: {},
    external_id: null,
    email: 'ada@example.test',
    email_verified: false,
    name: 'Ada Lovelace',
    billing_name: null,
    billing_address: {
      country: 'US',
      state: 'US-CA',
      city: null,
      postal_code: null,
      line1: null,
      line2: null,
    },
    tax_id: null,
    organization_id: ids.organization,
    deleted_at: null,
    first_user_event_at: null,
    avatar_url: 'https://www.gravatar.com/avatar/0?d=404',
    type: 'individual',
  },
  product: {
    ...stamps,
    id: ids.product,
    name: 'Team plan',
    description: null,
    recurring_interval: 'month',
    is_recurring: true,
    is_archived: false,
    recurring_interval_count: 1,
    meter_interval: null,
    meter_interval_count: null,
    trial_interval: null,
    trial_interval_count: null,
    visibility: 'public',
    organization_id: ids.organization,
    metadata: {},
    is_deletable: false,
    prices: [fixedPrice, meteredPrice],
    benefits: [],
    medias: [],
    attached_custom_fields: [],
    pause_keeps_benefits: false,
  },
  discount: {
    ...stamps,
    id: ids.discount,
    metadata: {},
    name: 'Launch',
    code: 'LAUNCH20',
    starts_at: null,
    ends_at: null,
    max_redemptions: null,
    max_redemptions_per_customer: null,
    redemptions_count: 1,
    organization_id: ids.organization,
    type: 'percentage',
    duration: 'repeating',
    duration_in_months: 3,
    basis_points: 2000,
  },
  prices: [fixedPrice, meteredPrice],
  meters: [
    {
      ...stamps,
      id: ids.subscriptionMeter,
      consumed_units: 12.5,
      credited_units: 0,
      amount: 625,
      meter_id: ids.meter,
      meter,
    },
  ],
  pending_update: null,
  // Set to cancel: its current period only.
  price_schedule: [{ amount: 2000, periods: 1, starts_at: at, ends_at: '2026-02-28T10:00:00.000Z' }],
};

describe('the Subscription wire shape', () => {
  it("is what our schema writes and what the SDK's own validation reads", () => {
    const ours = subscriptionSchema.parse(wire);
    const read = Subscription$inboundSchema.parse(ours);
    expect(read).toMatchObject({
      id: ids.subscription,
      status: 'active',
      cancelAtPeriodEnd: true,
      customerCancellationReason: 'too_expensive',
      currentPeriodEnd: new Date('2026-02-28T10:00:00.000Z'),
      prices: [
        expect.objectContaining({ amountType: 'fixed' }),
        expect.objectContaining({ amountType: 'metered_unit' }),
      ],
      meters: [expect.objectContaining({ consumedUnits: 12.5, amount: 625 })],
    });
  });

  it('is what @polar-sh/sdk@0.48.1 reads too', () => {
    const read = Subscription0481$inboundSchema.parse(subscriptionSchema.parse(wire));
    expect(read).toMatchObject({
      id: ids.subscription,
      recurringIntervalCount: 1,
      trialEnd: null,
      pendingUpdate: null,
      customer: expect.objectContaining({ type: 'individual' }),
      prices: [
        expect.objectContaining({ source: 'catalog' }),
        expect.objectContaining({ source: 'catalog' }),
      ],
    });
  });

  it('refuses what the SDK would refuse: an unknown status or cancellation reason', () => {
    expect(subscriptionSchema.safeParse({ ...wire, status: 'frozen' }).success).toBe(false);
    // Polar's dated versions pause (pause.ts).
    expect(subscriptionSchema.safeParse({ ...wire, status: 'paused' }).success).toBe(true);
    expect(subscriptionSchema.safeParse({ ...wire, customer_cancellation_reason: 'bored' }).success).toBe(
      false,
    );
  });
});

// The order's subscription lives with orders (below subscriptions, docs/architecture.md "Domain
// layers"); the Subscription extends it. Both keep the fields, and the order of the fields, they had.
describe('the Subscription and the order’s subscription', () => {
  const pointed = {
    customer: true,
    product: true,
    discount: true,
    prices: true,
    meters: true,
    pending_update: true,
    price_schedule: true,
  } as const;

  it('write the same fields in the same order', () => {
    const own = Object.keys(orderSubscriptionSchema.shape);
    expect(own).toEqual([
      'created_at',
      'modified_at',
      'id',
      'amount',
      'currency',
      'recurring_interval',
      'recurring_interval_count',
      'status',
      'current_period_start',
      'current_period_end',
      'trial_start',
      'trial_end',
      'current_meter_period_start',
      'current_meter_period_end',
      'cancel_at_period_end',
      'pause_at_period_end',
      'paused_at',
      'resumes_at',
      'seats',
      'units',
      'canceled_at',
      'started_at',
      'ends_at',
      'ended_at',
      'past_due_at',
      'customer_id',
      'product_id',
      'discount_id',
      'checkout_id',
      'customer_cancellation_reason',
      'customer_cancellation_comment',
      'metadata',
      'custom_field_data',
    ]);
    expect(Object.keys(subscriptionSchema.shape)).toEqual([...own, ...Object.keys(pointed)]);
    expect(z.toJSONSchema(orderSubscriptionSchema)).toEqual(z.toJSONSchema(subscriptionSchema.omit(pointed)));
  });
});

describe('PATCH /v1/subscriptions/{id} bodies', () => {
  // What the SDK sends for each variant of its SubscriptionUpdate union.
  const sent = (body: Parameters<typeof SubscriptionUpdate$outboundSchema.parse>[0]) =>
    SubscriptionUpdate$outboundSchema.parse(body);

  it('reads each variant the SDK sends, by its shape', () => {
    expect(
      subscriptionUpdateSchema.parse(sent({ productId: ids.product, prorationBehavior: 'invoice' })),
    ).toEqual({
      product_id: ids.product,
      proration_behavior: 'invoice',
    });
    expect(subscriptionUpdateSchema.parse(sent({ discountId: null }))).toEqual({ discount_id: null });
    expect(
      subscriptionUpdateSchema.parse(
        sent({
          cancelAtPeriodEnd: true,
          customerCancellationReason: 'unused',
          customerCancellationComment: null,
        }),
      ),
    ).toEqual({
      cancel_at_period_end: true,
      customer_cancellation_reason: 'unused',
      customer_cancellation_comment: null,
    });
    expect(subscriptionUpdateSchema.parse(sent({ revoke: true }))).toEqual({ revoke: true });
  });

  it('refuses a body of no variant, mixed variants and revoke: false', () => {
    for (const body of [
      {},
      { revoke: false },
      { product_id: ids.product, discount_id: null },
      { cancel_at_period_end: true, revoke: true },
      { product_id: 'not-a-uuid' },
      { cancel_at_period_end: true, customer_cancellation_comment: 'x'.repeat(1001) },
    ]) {
      expect(subscriptionUpdateSchema.safeParse(body).success).toBe(false);
    }
  });
});

describe('the list query', () => {
  it('reads active as true or false only, and sorts by the SDK’s properties', () => {
    expect(subscriptionListQuerySchema.parse({ active: 'false', sorting: '-started_at' })).toMatchObject({
      active: false,
    });
    expect(subscriptionListQuerySchema.safeParse({ active: 'yes' }).success).toBe(false);
    expect(subscriptionListQuerySchema.safeParse({ sorting: 'created_at' }).success).toBe(false);
  });
});

describe('subscriptionUpdateSchema errors', () => {
  const issuesOf = (body: unknown) => {
    const parsed = subscriptionUpdateSchema.safeParse(body);
    if (parsed.success) throw new Error('expected the body to be refused');
    return invalidInputFromZod(parsed.error, 'body').issues.map((issue) => issue.loc.join('.'));
  };

  it('names the field of the variant the body’s keys match', () => {
    expect(issuesOf({ cancel_at_period_end: true, customer_cancellation_comment: 'x'.repeat(2000) })).toEqual(
      ['body.customer_cancellation_comment'],
    );
    expect(issuesOf({ product_id: 'not-a-uuid' })).toEqual(['body.product_id']);
  });

  it('falls back to the whole body when no variant matches its keys', () => {
    expect(issuesOf({})).toEqual(['body']);
    expect(issuesOf({ colour: 'blue' })).toEqual(['body']);
  });
});

describe('subscriptionUpdateSchema errors with several variants fitting the keys', () => {
  it('names a field every fitting variant refuses', () => {
    const parsed = subscriptionUpdateSchema.safeParse({ customer_cancellation_comment: 'x'.repeat(2000) });
    expect(parsed.success).toBe(false);
    const locs = invalidInputFromZod(parsed.error!, 'body').issues.map((issue) => issue.loc.join('.'));
    expect(locs).toEqual(['body.customer_cancellation_comment']);
  });
});
