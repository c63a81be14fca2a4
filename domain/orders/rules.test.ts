import { describe, expect, it } from '@jest/globals';
import { statusAfterRefund } from './rules.js';

describe('statusAfterRefund', () => {
  it('is paid before any refund, partially refunded in between, refunded at the net amount', () => {
    expect(statusAfterRefund(2000, 0)).toBe('paid');
    expect(statusAfterRefund(2000, 1)).toBe('partially_refunded');
    expect(statusAfterRefund(2000, 2000)).toBe('refunded');
  });
});
