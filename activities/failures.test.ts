import { describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import { PaymentProcessorError } from '../domain/payments/errors.js';
import { toActivityFailure, withRetryContract } from './failures.js';

describe('toActivityFailure', () => {
  it.each([
    ['permanent', 'ProcessorRequestRefused', true],
    ['transient', 'ProcessorUnavailable', false],
    ['configuration', 'ProcessorMisconfigured', false],
  ] as const)('raises a %s processor error as %s (non-retryable: %s)', (failureClass, type, nonRetryable) => {
    const failure = toActivityFailure(new PaymentProcessorError('some_code', 'Refused.', failureClass));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type,
      nonRetryable,
      message: 'Refused.',
      details: [{ code: 'some_code' }],
    });
  });

  it('passes any other error through for Temporal to retry (PostgreSQL unavailable, a bug)', () => {
    const error = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    expect(toActivityFailure(error)).toBe(error);
  });
});

describe('withRetryContract', () => {
  it('keeps answers and raises processor errors by their class', async () => {
    const activities = withRetryContract({
      answer: async (value: number) => value * 2,
      refuse: async () => {
        throw new PaymentProcessorError('resource_missing', "No such customer: 'cus_1'", 'permanent');
      },
    });
    expect(await activities.answer(21)).toBe(42);
    await expect(activities.refuse()).rejects.toMatchObject({
      type: 'ProcessorRequestRefused',
      nonRetryable: true,
    });
  });
});
