import { describe, expect, it } from '@jest/globals';
import {
  draftChargeAttemptOf,
  draftChargeKey,
  isUnpaidStatus,
  orderNumber,
  statusAfterRefund,
  taxOfItems,
} from './rules.js';

describe('statusAfterRefund', () => {
  it('is paid before any refund, partially refunded in between, refunded at the net amount', () => {
    expect(statusAfterRefund(2000, 0)).toBe('paid');
    expect(statusAfterRefund(2000, 1)).toBe('partially_refunded');
    expect(statusAfterRefund(2000, 2000)).toBe('refunded');
  });
});

describe('taxOfItems', () => {
  it('shares the tax over the positive items, the rounding on the last of them', () => {
    expect(taxOfItems([1000, 300, 8], 249)).toEqual([190, 57, 2]);
    expect(taxOfItems([1000, 300, 8], 249).reduce((sum, tax) => sum + tax, 0)).toBe(249);
  });

  it('gives credits no tax, and the last positive item the rest even when a credit follows it', () => {
    expect(taxOfItems([2000, 500, -750], 333)).toEqual([266, 67, 0]);
  });

  it('is zero everywhere without tax or without a positive item', () => {
    expect(taxOfItems([1000, -1000], 0)).toEqual([0, 0]);
    expect(taxOfItems([-500], 10)).toEqual([0]);
    expect(taxOfItems([], 10)).toEqual([]);
  });

  it('stays exact where tax × amount passes 2^53', () => {
    const big = 2 ** 40;
    expect(taxOfItems([big, big], 2 ** 20 + 1)).toEqual([2 ** 19, 2 ** 19 + 1]);
  });
});

describe('orderNumber', () => {
  it('is the head of the id in capitals, whatever case the id comes in', () => {
    expect(orderNumber('3f2a91c0-5b1e-4c7d-9a2b-0c1d2e3f4a5b')).toBe('3F2A91C0');
    expect(orderNumber('3F2A91C0-5B1E-4C7D-9A2B-0C1D2E3F4A5B')).toBe('3F2A91C0');
  });
});

describe('draftChargeAttemptOf', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  it("reads the try of this order's draft charge key, and nothing else", () => {
    expect(draftChargeAttemptOf(id, draftChargeKey(id, 3))).toBe(3);
    expect(draftChargeAttemptOf('00000000-0000-4000-8000-000000000002', draftChargeKey(id, 3))).toBeNull();
    expect(draftChargeAttemptOf(id, `order:${id}:attempt:1`)).toBeNull();
    expect(draftChargeAttemptOf(id, null)).toBeNull();
  });
});

describe('isUnpaidStatus', () => {
  it('counts drafts and pending orders as unpaid, nothing else', () => {
    expect(['draft', 'pending', 'paid', 'refunded', 'partially_refunded'].map(isUnpaidStatus)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
