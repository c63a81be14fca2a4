import { describe, expect, it } from '@jest/globals';
import {
  disputeHoldsBenefits,
  isDisputeClosed,
  isDisputeResolved,
  nextDisputeStatus,
  shouldAutoAccept,
  splitDisputedAmount,
} from './rules.js';

describe('dispute states', () => {
  it('calls won and lost resolved, and prevented closed too', () => {
    expect(['won', 'lost'].every((status) => isDisputeResolved(status as 'won' | 'lost'))).toBe(true);
    expect(isDisputeResolved('prevented')).toBe(false);
    expect(isDisputeClosed('prevented')).toBe(true);
    expect(isDisputeClosed('needs_response')).toBe(false);
    expect(isDisputeClosed('early_warning')).toBe(false);
  });

  it('holds benefits while open or lost, gives them back when won or prevented', () => {
    expect(disputeHoldsBenefits('needs_response')).toBe(true);
    expect(disputeHoldsBenefits('lost')).toBe(true);
    expect(disputeHoldsBenefits('won')).toBe(false);
    expect(disputeHoldsBenefits('prevented')).toBe(false);
  });
});

describe('nextDisputeStatus', () => {
  it('takes the first word as it is', () => {
    expect(nextDisputeStatus(null, 'needs_response')).toBe('needs_response');
  });

  it('moves an open dispute as the processor says', () => {
    expect(nextDisputeStatus({ status: 'needs_response', accepted: false }, 'under_review')).toBe(
      'under_review',
    );
    expect(nextDisputeStatus({ status: 'under_review', accepted: false }, 'won')).toBe('won');
  });

  it('keeps a closed dispute closed against a late event of an earlier stage', () => {
    expect(nextDisputeStatus({ status: 'won', accepted: false }, 'needs_response')).toBe('won');
  });

  it('keeps an accepted dispute lost until the processor says how it ended', () => {
    expect(nextDisputeStatus({ status: 'lost', accepted: true }, 'needs_response')).toBe('lost');
    expect(nextDisputeStatus({ status: 'lost', accepted: true }, 'won')).toBe('won');
  });
});

describe('splitDisputedAmount', () => {
  it('splits the charge as the order was split, half up', () => {
    // 1190 paid with 190 tax: 595 disputed carries 95 of tax.
    expect(splitDisputedAmount({ totalAmount: 1190, taxAmount: 190 }, 595)).toEqual({
      amount: 500,
      taxAmount: 95,
    });
    expect(splitDisputedAmount({ totalAmount: 1190, taxAmount: 190 }, 1190)).toEqual({
      amount: 1000,
      taxAmount: 190,
    });
    // 3 × 190 / 1190 = 0.479 → 0; 4 × 190 / 1190 = 0.639 → 1.
    expect(splitDisputedAmount({ totalAmount: 1190, taxAmount: 190 }, 3).taxAmount).toBe(0);
    expect(splitDisputedAmount({ totalAmount: 1190, taxAmount: 190 }, 4).taxAmount).toBe(1);
  });

  it('has no tax share for an order without tax', () => {
    expect(splitDisputedAmount({ totalAmount: 2500, taxAmount: 0 }, 2500)).toEqual({
      amount: 2500,
      taxAmount: 0,
    });
  });
});

describe('shouldAutoAccept', () => {
  it('accepts open disputes below the setting, never at it, never with the setting off', () => {
    expect(shouldAutoAccept(999, 'needs_response', 1000)).toBe(true);
    expect(shouldAutoAccept(1000, 'needs_response', 1000)).toBe(false);
    expect(shouldAutoAccept(1, 'needs_response', null)).toBe(false);
  });

  it('does not accept what is already closed', () => {
    expect(shouldAutoAccept(1, 'won', 1000)).toBe(false);
    expect(shouldAutoAccept(1, 'prevented', 1000)).toBe(false);
  });
});
