import { describe, expect, it } from '@jest/globals';
import { purchaseCustomerChanges, purchaseTaxId, type PurchaseDetails } from './rules.js';

const BERLIN: NonNullable<PurchaseDetails['billingAddress']> = {
  line1: 'Unter den Linden 1',
  postal_code: '10117',
  city: 'Berlin',
  state: null,
  country: 'DE',
};
const nobody: PurchaseDetails = { name: null, billingAddress: null, taxId: null };

describe('purchaseTaxId', () => {
  it('keeps the number a buyer typed with the format it fits, normalized', () => {
    expect(purchaseTaxId('de 123 456 789', 'DE')).toEqual(['DE123456789', 'eu_vat']);
    expect(purchaseTaxId('GB123456789', 'GB')).toEqual(['GB123456789', 'gb_vat']);
  });

  it('keeps nothing when none was typed or it fits no format', () => {
    expect(purchaseTaxId(null, 'DE')).toBeNull();
    expect(purchaseTaxId('not a number!', 'DE')).toBeNull();
  });
});

describe('purchaseCustomerChanges', () => {
  it('saves the address and tax id a checkout collected onto a customer without them (regression: renewals went untaxed)', () => {
    expect(
      purchaseCustomerChanges(
        { ...nobody, name: 'Lin' },
        { name: 'Lin Buyer', billingAddress: BERLIN, taxId: ['DE123456789', 'eu_vat'] },
      ),
    ).toEqual({ billingAddress: BERLIN, taxId: ['DE123456789', 'eu_vat'] });
  });

  it('replaces an address or tax id the buyer changed, as Polar’s checkout does', () => {
    const paris = { ...BERLIN, city: 'Paris', postal_code: '75001', country: 'FR' };
    expect(
      purchaseCustomerChanges(
        { name: 'Lin', billingAddress: BERLIN, taxId: ['DE123456789', 'eu_vat'] },
        { name: 'Lin', billingAddress: paris, taxId: ['FR12345678901', 'eu_vat'] },
      ),
    ).toEqual({ billingAddress: paris, taxId: ['FR12345678901', 'eu_vat'] });
  });

  it('names a customer only when it has no name: a card’s holder may pay for a company', () => {
    expect(purchaseCustomerChanges(nobody, { ...nobody, name: 'Lin' })).toEqual({ name: 'Lin' });
    expect(purchaseCustomerChanges({ ...nobody, name: 'Acme' }, { ...nobody, name: 'Lin' })).toBeNull();
  });

  it('erases nothing the checkout did not collect, and changes nothing when all is the same', () => {
    const current: PurchaseDetails = {
      name: 'Lin',
      billingAddress: BERLIN,
      taxId: ['DE123456789', 'eu_vat'],
    };
    expect(purchaseCustomerChanges(current, nobody)).toBeNull();
    // The same address, written with its empty fields left out.
    const { state: _state, ...sameBerlin } = BERLIN;
    expect(purchaseCustomerChanges(current, { ...current, billingAddress: sameBerlin })).toBeNull();
  });
});
