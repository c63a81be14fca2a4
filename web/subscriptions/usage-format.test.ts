import { describe, expect, it } from '@jest/globals';
import type { UpcomingInvoice, UpcomingInvoiceMeter } from '../../domain/subscriptions/schemas';
import { describeMeteredCharge, describeUpcomingCharge } from './usage-format';

const meter = (overrides: Partial<UpcomingInvoiceMeter> = {}): UpcomingInvoiceMeter => ({
  product_price_id: '00000000-0000-4000-8000-000000000001',
  meter_id: '00000000-0000-4000-8000-000000000002',
  meter_name: 'Tokens',
  consumed_units: 2005,
  credited_units: 0,
  billable_units: 2005,
  unit_amount: '0.2',
  cap_amount: null,
  capped: false,
  amount: 401,
  ...overrides,
});

describe('describeMeteredCharge', () => {
  it('says units × unit price', () => {
    expect(describeMeteredCharge(meter(), 'usd', 'en-US')).toBe('2,005 used × $0.002');
  });

  it('takes credits off first and says when the cap applied', () => {
    expect(
      describeMeteredCharge(
        meter({
          consumed_units: 1001,
          credited_units: 100,
          billable_units: 901,
          unit_amount: '0.35',
          cap_amount: 300,
          capped: true,
        }),
        'usd',
        'en-US',
      ),
    ).toBe('1,001 used − 100 credited = 901 × $0.0035, capped at $3.00');
    expect(describeMeteredCharge(meter({ cap_amount: 1000 }), 'usd', 'en-US')).toBe(
      '2,005 used × $0.002, up to $10.00',
    );
  });
});

describe('describeUpcomingCharge', () => {
  const invoice = (overrides: Partial<UpcomingInvoice>): UpcomingInvoice => ({
    subscription_id: '00000000-0000-4000-8000-000000000003',
    currency: 'usd',
    billed_at: '2026-04-01T00:00:00.000Z',
    ends_subscription: false,
    period_start: '2026-03-01T00:00:00.000Z',
    period_end: '2026-04-01T00:00:00.000Z',
    lines: [],
    subtotal_amount: 1401,
    discount_amount: 0,
    discount_id: null,
    net_amount: 1401,
    tax_amount: 0,
    total_amount: 1401,
    carried_credit_amount: 0,
    meters: [],
    ...overrides,
  });

  it('says the total and the day it is charged', () => {
    expect(describeUpcomingCharge(invoice({}), '1 Apr 2026')).toBe('$14.01 on 1 Apr 2026');
    expect(describeUpcomingCharge(invoice({ ends_subscription: true }), '1 Apr 2026')).toBe(
      '$14.01 on 1 Apr 2026, the last invoice of this subscription',
    );
    expect(describeUpcomingCharge(invoice({ billed_at: null }), '—')).toBe('Nothing more will be billed.');
  });
});
