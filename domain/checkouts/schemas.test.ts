import { describe, expect, it } from '@jest/globals';
import { checkoutCreateSchema, checkoutLinkQuerySchema } from './schemas.js';

describe('checkoutLinkQuerySchema', () => {
  it("reads Polar's link parameters, custom fields written either way", () => {
    expect(
      checkoutLinkQuerySchema.parse({
        embed: 'true',
        embed_origin: 'https://shop.example.test',
        customer_email: 'Ada@Example.TEST',
        customer_name: ' Ada Lovelace ',
        discount_code: 'LAUNCH',
        amount: '4200',
        'custom_field_data.company': 'Acme',
        custom_field_data: { terms: 'true' },
        reference_id: 'order-17',
        utm_source: 'newsletter',
        utm_term: 'books',
        theme: 'dark',
      }),
    ).toEqual({
      embed: true,
      embedOrigin: 'https://shop.example.test',
      customerEmail: 'ada@example.test',
      customerName: 'Ada Lovelace',
      discountCode: 'LAUNCH',
      amount: 4200,
      customFieldData: { company: 'Acme', terms: 'true' },
      metadata: { reference_id: 'order-17', utm_source: 'newsletter', utm_term: 'books' },
    });
  });

  it('reads nothing from an empty query', () => {
    expect(checkoutLinkQuerySchema.parse({})).toEqual({
      embed: false,
      embedOrigin: null,
      customerEmail: null,
      customerName: null,
      discountCode: null,
      amount: null,
      customFieldData: {},
      metadata: {},
    });
  });

  it('ignores each value that does not fit, keeping the others', () => {
    expect(
      checkoutLinkQuerySchema.parse({
        embed: 'yes',
        embed_origin: 'javascript:alert(1)',
        customer_email: 'not-an-email',
        customer_name: ['Ada', 'Grace'],
        discount_code: '   ',
        amount: '12.50',
        'custom_field_data.bad slug': 'x',
        'custom_field_data.empty': '',
        custom_field_data: { nested: { deeper: 'x' }, seats: '3' },
        reference_id: 'r'.repeat(501),
        utm_source: { a: 'b' },
        utm_medium: 'email',
      }),
    ).toEqual({
      embed: false,
      embedOrigin: null,
      customerEmail: null,
      customerName: null,
      discountCode: null,
      amount: null,
      customFieldData: { seats: '3' },
      metadata: { utm_medium: 'email' },
    });
  });

  it('takes an origin only, over http(s)', () => {
    const origin = (embed_origin: string) => checkoutLinkQuerySchema.parse({ embed_origin }).embedOrigin;
    expect(origin('http://localhost:3000')).toBe('http://localhost:3000');
    expect(origin('https://shop.example.test/')).toBe('https://shop.example.test');
    expect(origin('https://shop.example.test/store')).toBeNull();
    expect(origin('ftp://shop.example.test')).toBeNull();
    expect(origin('shop.example.test')).toBeNull();
  });

  it('takes amounts as whole minor units up to the API maximum', () => {
    const amount = (value: string) => checkoutLinkQuerySchema.parse({ amount: value }).amount;
    expect(amount('0')).toBe(0);
    expect(amount('99999999')).toBe(99_999_999);
    for (const bad of ['100000000', '-5', '1e3', '', 'ten']) expect(amount(bad)).toBeNull();
  });
});

describe('embed_origin on checkouts.create', () => {
  it('refuses a value that is no URL with an issue on the field (it used to throw a TypeError)', () => {
    const parsed = checkoutCreateSchema.safeParse({
      product_id: '5b1f7b8e-8a4e-4c1e-9b1a-1b2c3d4e5f60',
      embed_origin: 'shop.example.test',
    });
    expect(parsed.error?.issues.map((issue) => issue.path)).toContainEqual(['embed_origin']);
  });
});
