import { describe, expect, it } from '@jest/globals';
import { refundTaxFor } from './rules.js';

describe('refundTaxFor', () => {
  const order = { netAmount: 1000, taxAmount: 190 };

  it('gives back the tax in proportion, rounded half up', () => {
    expect(refundTaxFor(order, 500, { net: 1000, tax: 190 })).toBe(95);
    expect(refundTaxFor(order, 333, { net: 1000, tax: 190 })).toBe(63);
    expect(refundTaxFor(order, 5, { net: 1000, tax: 190 })).toBe(1);
  });

  it('gives back exactly the tax left with the last of the net amount', () => {
    expect(refundTaxFor(order, 334, { net: 334, tax: 64 })).toBe(64);
  });

  it('never gives back more than is left, and nothing on an untaxed order', () => {
    expect(refundTaxFor(order, 999, { net: 1000, tax: 100 })).toBe(100);
    expect(refundTaxFor({ netAmount: 0, taxAmount: 0 }, 0, { net: 1, tax: 0 })).toBe(0);
  });
});
