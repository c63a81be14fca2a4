import { describe, expect, it } from '@jest/globals';
import type { AttachedCustomField } from '../../domain/custom-fields/schemas';
import type { ProductPrice } from '../../domain/products/schemas';
import {
  buyerSeatRange,
  changedFields,
  countryChanged,
  initialValues,
  issuesByField,
  missingFields,
  refusedKeys,
  resolveSuccessUrl,
  shownAddressFields,
  toUpdate,
  type FormCheckout,
} from './form';

const NOW = '2026-11-23T10:00:00.000Z';
const PRODUCT_ID = '7f1c8a52-5a0e-4d55-9a57-0b8f6d3c1a01';
const PRICE_ID = '7f1c8a52-5a0e-4d55-9a57-0b8f6d3c1a02';
const CHECKOUT_ID = '7f1c8a52-5a0e-4d55-9a57-0b8f6d3c1a03';

const fixedPrice: ProductPrice = {
  id: PRICE_ID,
  created_at: NOW,
  modified_at: null,
  is_archived: false,
  product_id: PRODUCT_ID,
  type: 'one_time',
  recurring_interval: null,
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'fixed',
  price_currency: 'usd',
  price_amount: 2000,
};

/** 3–10 seats at $10, 11–40 at $8. */
const seatPrice: ProductPrice = {
  ...fixedPrice,
  type: 'recurring',
  recurring_interval: 'month',
  amount_type: 'seat_based',
  price_currency: 'usd',
  seat_tiers: {
    seat_tier_type: 'volume',
    tiers: [
      { min_seats: 3, max_seats: 10, price_per_seat: 1000 },
      { min_seats: 11, max_seats: 40, price_per_seat: 800 },
    ],
    minimum_seats: 3,
    maximum_seats: 40,
  },
  tiers: {
    type: 'volume',
    tiers: [
      { bound: 10, unit_amount: '1000' },
      { bound: 40, unit_amount: '800' },
    ],
  },
  minimum_units: 3,
  maximum_units: 40,
};

const customPrice: ProductPrice = {
  ...fixedPrice,
  amount_type: 'custom',
  minimum_amount: 500,
  maximum_amount: 10000,
  preset_amount: 1500,
};

function textField(slug: string, required: boolean): AttachedCustomField {
  return {
    custom_field_id: '7f1c8a52-5a0e-4d55-9a57-0b8f6d3c1a04',
    order: 0,
    required,
    custom_field: {
      id: '7f1c8a52-5a0e-4d55-9a57-0b8f6d3c1a04',
      created_at: NOW,
      modified_at: null,
      metadata: {},
      slug,
      name: slug,
      organization_id: '7f1c8a52-5a0e-4d55-9a57-0b8f6d3c1a05',
      type: 'text',
      properties: { form_label: 'Company' },
    },
  };
}

function makeCheckout(overrides: Partial<FormCheckout> = {}): FormCheckout {
  return {
    id: CHECKOUT_ID,
    url: 'https://pay.example.test/checkout/secret',
    success_url: 'https://pay.example.test/checkout/secret/confirmation',
    amount: 2000,
    seats: null,
    min_seats: null,
    max_seats: null,
    currency: 'usd',
    product_price: fixedPrice,
    customer_name: null,
    customer_email: null,
    customer_billing_address: null,
    custom_field_data: {},
    attached_custom_fields: [],
    customer_billing_address_fields: {
      country: true,
      state: false,
      city: false,
      postal_code: false,
      line1: false,
      line2: false,
    },
    is_payment_form_required: true,
    require_billing_address: false,
    ...overrides,
  };
}

describe('toUpdate', () => {
  it('leaves a half-typed email out of a PATCH but sends it on confirmation', () => {
    const checkout = makeCheckout();
    const values = { ...initialValues(checkout), email: 'ada@exa', name: ' Ada ' };
    expect(toUpdate(values, checkout, { forConfirm: false })).toEqual({
      customer_name: 'Ada',
      customer_billing_address: null,
    });
    expect(toUpdate(values, checkout, { forConfirm: true }).customer_email).toBe('ada@exa');
  });

  it('sends an address with its country upper-cased and empty lines as null', () => {
    const checkout = makeCheckout();
    const values = initialValues(checkout);
    values.address = { ...values.address, country: 'us', city: 'Austin', state: 'TX' };
    expect(toUpdate(values, checkout, { forConfirm: false }).customer_billing_address).toEqual({
      country: 'US',
      line1: null,
      line2: null,
      postal_code: null,
      city: 'Austin',
      state: 'TX',
    });
  });

  it('sends a custom amount in minor units only when the price allows it', () => {
    const checkout = makeCheckout({ product_price: customPrice, amount: 1500 });
    const values = initialValues(checkout);
    expect(values.amount).toBe('15.00');
    expect(toUpdate({ ...values, amount: '7.5' }, checkout, { forConfirm: false }).amount).toBe(750);
    expect(toUpdate({ ...values, amount: '2' }, checkout, { forConfirm: false }).amount).toBeUndefined();
    expect(toUpdate({ ...values, amount: '2' }, checkout, { forConfirm: true }).amount).toBe(200);
  });

  it('sends custom field values by slug, empty ones as null', () => {
    const checkout = makeCheckout({ attached_custom_fields: [textField('company', false)] });
    const values = initialValues(checkout);
    expect(toUpdate(values, checkout, { forConfirm: false }).custom_field_data).toEqual({ company: null });
    values.customFields.company = ' Acme ';
    expect(toUpdate(values, checkout, { forConfirm: false }).custom_field_data).toEqual({ company: 'Acme' });
  });
});

describe('changedFields', () => {
  it('sends what changed since the last accepted update, but not a value just refused', () => {
    const accepted = { customer_name: 'Ada', customer_email: null };
    const current = { customer_name: 'Ada L', customer_email: 'bad@x.y' };
    expect(changedFields(current, accepted, {})).toEqual(current);
    expect(changedFields(current, accepted, { customer_email: 'bad@x.y' })).toEqual({
      customer_name: 'Ada L',
    });
    expect(changedFields(accepted, accepted, {})).toEqual({});
  });
});

describe('issues', () => {
  it('puts each issue next to its field and the rest in general', () => {
    const issues = [
      { loc: ['body', 'customer_email'], msg: 'value is not a valid email address' },
      { loc: ['body', 'customer_billing_address', 'state'], msg: 'A state is required for US.' },
      { loc: ['body', 'metadata'], msg: 'Unexpected' },
    ];
    const shown = new Set(['customer_email', 'customer_billing_address.state']);
    expect(issuesByField(issues, shown)).toEqual({
      fields: {
        customer_email: 'value is not a valid email address',
        'customer_billing_address.state': 'A state is required for US.',
      },
      general: ['metadata: Unexpected'],
    });
    expect(refusedKeys(issues)).toEqual(['customer_email', 'customer_billing_address', 'metadata']);
  });
});

describe('missingFields', () => {
  it('asks for email, name, country and the required address fields and custom fields', () => {
    const checkout = makeCheckout({
      attached_custom_fields: [textField('company', true)],
      customer_billing_address_fields: {
        country: true,
        state: true,
        city: true,
        postal_code: true,
        line1: true,
        line2: false,
      },
    });
    expect(shownAddressFields(checkout)).toEqual([
      'country',
      'line1',
      'line2',
      'postal_code',
      'city',
      'state',
    ]);
    expect(Object.keys(missingFields(initialValues(checkout), checkout)).sort()).toEqual([
      'custom_field_data.company',
      'customer_billing_address.city',
      'customer_billing_address.country',
      'customer_billing_address.line1',
      'customer_billing_address.postal_code',
      'customer_billing_address.state',
      'customer_email',
      'customer_name',
    ]);
  });

  it('says which amounts a pay-what-you-want price takes', () => {
    const checkout = makeCheckout({ product_price: customPrice });
    const values = { ...initialValues(checkout), email: 'ada@example.test', name: 'Ada', amount: '1' };
    values.address.country = 'DE';
    expect(missingFields(values, checkout)).toEqual({
      amount: 'Enter an amount of at least 5.00 and at most 100.00.',
    });
    expect(missingFields({ ...values, amount: '5' }, checkout)).toEqual({});
  });
});

describe('a US or Canadian buyer', () => {
  const usFields = { country: true, state: true, city: true, postal_code: true, line1: true, line2: false };

  it('sends the country alone first, so the server can say which fields that country needs', () => {
    const checkout = makeCheckout();
    const values = initialValues(checkout);
    values.address.country = 'US';
    const accepted = toUpdate(initialValues(checkout), checkout, { forConfirm: false });
    expect(countryChanged(values, accepted)).toBe(true);
    const update = toUpdate(values, checkout, { forConfirm: false });
    expect(update.customer_billing_address).toEqual({
      country: 'US',
      line1: null,
      line2: null,
      postal_code: null,
      city: null,
      state: null,
    });
    expect(countryChanged(values, update)).toBe(false);
  });

  it('orders the fields as North American addresses are written', () => {
    const us = makeCheckout({ customer_billing_address_fields: usFields });
    expect(shownAddressFields(us, 'US')).toEqual([
      'country',
      'line1',
      'line2',
      'city',
      'state',
      'postal_code',
    ]);
  });

  it('asks for the state or province in the buyer’s words', () => {
    const us = makeCheckout({ customer_billing_address_fields: usFields });
    const values = { ...initialValues(us), email: 'ada@example.test', name: 'Ada' };
    values.address = {
      ...values.address,
      country: 'US',
      line1: '1 Main St',
      city: 'Austin',
      postal_code: '78701',
    };
    expect(missingFields(values, us)).toEqual({ 'customer_billing_address.state': 'Choose your state.' });
    values.address.country = 'CA';
    expect(missingFields(values, us)).toEqual({
      'customer_billing_address.state': 'Choose your province or territory.',
    });
    expect(missingFields({ ...values, address: { ...values.address, state: 'QC' } }, us)).toEqual({});
  });

  it('shows a state stored as Polar does (US-NY) as the option NY', () => {
    const checkout = makeCheckout({
      customer_billing_address: { country: 'US', state: 'US-NY', line1: null, city: null, postal_code: null },
    });
    expect(initialValues(checkout).address.state).toBe('NY');
  });
});

describe('resolveSuccessUrl', () => {
  it('fills in the checkout id and tells the own confirmation page from a seller’s page', () => {
    expect(resolveSuccessUrl(makeCheckout())).toEqual({
      url: 'https://pay.example.test/checkout/secret/confirmation',
      isInternal: true,
    });
    expect(
      resolveSuccessUrl(makeCheckout({ success_url: 'https://shop.example.test/thanks?c={CHECKOUT_ID}' })),
    ).toEqual({ url: `https://shop.example.test/thanks?c=${CHECKOUT_ID}`, isInternal: false });
  });
});

describe('missingFields for a free checkout', () => {
  it('asks for no address unless the seller requires one', () => {
    const free = { is_payment_form_required: false };
    const checkout = makeCheckout(free);
    const values = { ...initialValues(checkout), email: 'ada@example.test' };
    expect(missingFields(values, checkout)).toEqual({});
    expect(
      Object.keys(missingFields(values, makeCheckout({ ...free, require_billing_address: true }))),
    ).toEqual(['customer_billing_address.country']);
  });
});

describe('seats', () => {
  it('offers the price’s range narrowed by the checkout’s bounds, and nothing for other prices', () => {
    expect(buyerSeatRange(makeCheckout())).toBeNull();
    expect(buyerSeatRange(makeCheckout({ product_price: seatPrice, seats: 3 }))).toEqual({
      minimum: 3,
      maximum: 40,
    });
    expect(
      buyerSeatRange(makeCheckout({ product_price: seatPrice, seats: 5, min_seats: 5, max_seats: 20 })),
    ).toEqual({ minimum: 5, maximum: 20 });
  });

  it('sends seats the buyer may choose, keeps others back with the range in words', () => {
    const checkout = makeCheckout({ product_price: seatPrice, seats: 3, amount: 3000 });
    expect(initialValues(checkout).seats).toBe('3');
    const twelve = { ...initialValues(checkout), seats: '12' };
    expect(toUpdate(twelve, checkout, { forConfirm: false }).seats).toBe(12);
    expect(missingFields(twelve, checkout).seats).toBeUndefined();
    for (const typed of ['2', '41', '1.5', '', 'ten']) {
      const values = { ...initialValues(checkout), seats: typed };
      expect(toUpdate(values, checkout, { forConfirm: true })).not.toHaveProperty('seats');
      expect(missingFields(values, checkout).seats).toBe('Choose from 3 to 40 seats.');
    }
  });
});
