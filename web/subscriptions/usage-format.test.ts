import { describe, expect, it } from '@jest/globals';
import type { UpcomingInvoice, UpcomingInvoiceMeter } from '../../domain/subscriptions/schemas';
import {
  describeMeteredCharge,
  describeUpcomingCharge,
  formatUnitPrice,
  shiftDecimalLeft,
} from './usage-format';

describe('shiftDecimalLeft', () => {
  it('moves the decimal point exactly, without floating point', () => {
    expect(shiftDecimalLeft('0.35', 2)).toBe('0.0035');
    expect(shiftDecimalLeft('2.5', 2)).toBe('0.025');
    expect(shiftDecimalLeft('50', 2)).toBe('0.5');
    expect(shiftDecimalLeft('1250', 2)).toBe('12.5');
    expect(shiftDecimalLeft('0.000000000001', 2)).toBe('0.00000000000001');
    expect(shiftDecimalLeft('7', 0)).toBe('7');
    expect(shiftDecimalLeft('0.145', 3)).toBe('0.000145');
  });
});

describe('formatUnitPrice', () => {
  it('shows a sub-cent price in dollars with every digit, never rounded to $0.00', () => {
    expect(formatUnitPrice('0.35', 'usd', 'en-US')).toBe('$0.0035');
    expect(formatUnitPrice('0.2', 'usd', 'en-US')).toBe('$0.002');
    expect(formatUnitPrice('50', 'usd', 'en-US')).toBe('$0.50');
    expect(formatUnitPrice('0.5', 'jpy', 'en-US')).toBe('¥0.5');
    expect(formatUnitPrice('0.35', 'eur', 'de-DE')).toBe('0,0035\u00a0€');
  });
});

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
