import { describe, expect, it } from '@jest/globals';
import { orderNumber, statusAfterRefund } from './rules.js';

describe('statusAfterRefund', () => {
  it('is paid before any refund, partially refunded in between, refunded at the net amount', () => {
    expect(statusAfterRefund(2000, 0)).toBe('paid');
    expect(statusAfterRefund(2000, 1)).toBe('partially_refunded');
    expect(statusAfterRefund(2000, 2000)).toBe('refunded');
  });
});

describe('orderNumber', () => {
  it('is the head of the id in capitals, whatever case the id comes in', () => {
    expect(orderNumber('3f2a91c0-5b1e-4c7d-9a2b-0c1d2e3f4a5b')).toBe('3F2A91C0');
    expect(orderNumber('3F2A91C0-5B1E-4C7D-9A2B-0C1D2E3F4A5B')).toBe('3F2A91C0');
  });
});
