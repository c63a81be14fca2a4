import { describe, expect, it } from '@jest/globals';
import type { CustomerProduct } from '../../domain/customer-portal/schemas';
import type { PaymentMethod } from '../../domain/payment-methods/schemas';
import {
  cardBrandName,
  describeExpiry,
  describePaymentMethod,
  describeProductPrice,
  describeUsage,
  formatUnits,
  maskLicenseKey,
  signedMoney,
} from './format';

describe('maskLicenseKey', () => {
  it('hides all but the last four characters', () => {
    const key = 'TOLLGATE-6D1A2B3C-4F2A';
    const masked = maskLicenseKey(key);
    expect(masked.endsWith('4F2A')).toBe(true);
    expect(masked).not.toContain('6D1A');
    expect(masked).toHaveLength(key.length);
  });

  it('keeps a short key hidden behind at least four dots and a long one within 28 characters', () => {
    expect(maskLicenseKey('ABCDE')).toBe('••••BCDE');
    expect(maskLicenseKey('X'.repeat(80))).toHaveLength(28);
  });
});

describe('describeUsage', () => {
  it('counts against the limit when there is one', () => {
    expect(describeUsage({ usage: 3, limit_usage: 10 })).toBe('3 of 10 uses');
    expect(describeUsage({ usage: 1, limit_usage: null })).toBe('Used once');
    expect(describeUsage({ usage: 0, limit_usage: null })).toBe('Used 0 times');
  });
});

describe('describeExpiry', () => {
  it('says whether the date is past', () => {
    expect(describeExpiry(null)).toBe('Never expires');
    expect(describeExpiry('2000-01-01T00:00:00Z')).toMatch(/^Expired on /);
    expect(describeExpiry(new Date(Date.now() + 86_400_000).toISOString())).toMatch(/^Expires on /);
  });
});

describe('signedMoney', () => {
  it('writes a credit with a minus sign', () => {
    expect(signedMoney(-500, 'usd')).toMatch(/^−\$5\.00$/);
    expect(signedMoney(1250, 'usd')).toMatch(/^\$12\.50$/);
  });
});

describe('describePaymentMethod', () => {
  const card = (
    overrides: Partial<Extract<PaymentMethod, { type: 'card' }>['card']> = {},
  ): PaymentMethod => ({
    id: '6f1c1a8e-4c1f-4d7e-9a55-1f0f7d1c2b3a',
    type: 'card',
    created_at: '2026-03-01T09:00:00Z',
    default: true,
    card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2030, wallet: null, ...overrides },
  });
  const march2026 = new Date(2026, 2, 15);

  it('names the brand and the last four digits, with the expiry as cards print it', () => {
    expect(describePaymentMethod(card(), march2026)).toEqual({
      text: 'Visa •••• 4242, expires 11/2030',
      spoken: 'Visa ending in 4242, expires 11/2030',
      name: 'Visa ending in 4242',
    });
    expect(
      describePaymentMethod(card({ brand: 'mastercard', last4: '4444', exp_month: 3 }), march2026).text,
    ).toBe('Mastercard •••• 4444, expires 03/2030');
  });

  it('says a card is expired only after its expiry month', () => {
    expect(describePaymentMethod(card({ exp_month: 3, exp_year: 2026 }), march2026).text).toMatch(
      /expires 03\/2026$/,
    );
    expect(describePaymentMethod(card({ exp_month: 2, exp_year: 2026 }), march2026).text).toMatch(
      /expired 02\/2026$/,
    );
  });

  it('names the wallet a card was saved from', () => {
    expect(describePaymentMethod(card({ wallet: 'apple_pay' }), march2026).text).toBe(
      'Visa •••• 4242 (Apple Pay), expires 11/2030',
    );
  });

  it('lists a method saved without details by what it is', () => {
    const generic: PaymentMethod = {
      id: card().id,
      type: 'card',
      created_at: card().created_at,
      default: false,
    };
    expect(describePaymentMethod(generic).text).toBe('Card saved before expiry dates were kept');
  });
});

describe('cardBrandName', () => {
  it('writes brands as they are printed, unknown ones readably', () => {
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('cartes_bancaires')).toBe('Cartes bancaires');
    expect(cardBrandName('unknown')).toBe('Card');
  });
});

describe('formatUnits', () => {
  it('groups thousands and keeps up to four decimals', () => {
    expect(formatUnits(15802, 'en-US')).toBe('15,802');
    expect(formatUnits(0.123456, 'en-US')).toBe('0.1235');
    expect(formatUnits(2.5, 'de-DE')).toBe('2,5');
  });
});

describe('describeProductPrice', () => {
  const stamps = { created_at: '2026-01-31T10:00:00Z', modified_at: null };
  const priceCommon = {
    ...stamps,
    is_archived: false,
    product_id: '00000000-0000-4000-8000-000000000001',
    type: 'recurring' as const,
    recurring_interval: 'month' as const,
    source: 'catalog' as const,
    tax_behavior: null,
  };
  const plan = (prices: CustomerProduct['prices']): CustomerProduct => ({
    ...stamps,
    id: '00000000-0000-4000-8000-000000000001',
    name: 'API',
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
    organization_id: '00000000-0000-4000-8000-000000000005',
    is_deletable: true,
    prices,
    benefits: [],
    medias: [],
    pause_keeps_benefits: false,
  });
  const fee = {
    ...priceCommon,
    id: '00000000-0000-4000-8000-000000000002',
    amount_type: 'fixed' as const,
    price_currency: 'usd',
    price_amount: 1000,
  };
  const tokens = {
    ...priceCommon,
    id: '00000000-0000-4000-8000-000000000003',
    amount_type: 'metered_unit' as const,
    price_currency: 'usd',
    unit_amount: '0.2',
    cap_amount: 5000,
    meter_id: '00000000-0000-4000-8000-000000000004',
    meter: {
      id: '00000000-0000-4000-8000-000000000004',
      name: 'Tokens',
      unit: 'scalar' as const,
      custom_label: null,
      custom_multiplier: null,
    },
  };

  it('names each metered price with its unit price, cap and billing, not just “priced by usage”', () => {
    const text = describeProductPrice(plan([fee, tokens]));
    expect(text).toMatch(
      / \/ month plus usage: \$0\.002 per unit of Tokens, at most \$50\.00 a month, billed at the end of each month/,
    );
    expect(describeProductPrice(plan([tokens]))).toMatch(/^Usage: \$0\.002 per unit of Tokens/);
    expect(describeProductPrice(plan([fee]))).toMatch(/10\.00 \/ month$/);
  });
  it('a yearly plan with a monthly meter cycle: usage billed, and capped, each month', () => {
    const yearly = {
      ...plan([fee, tokens]),
      recurring_interval: 'year' as const,
      meter_interval: 'month' as const,
    };
    const text = describeProductPrice({ ...yearly, meter_interval_count: 1 });
    expect(text).toMatch(/ \/ year plus usage: /);
    expect(text).toMatch(
      /at most \$50\.00 a month, billed at the end of each month for what you used in it$/,
    );
  });
});
