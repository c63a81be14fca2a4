import { describe, expect, it } from '@jest/globals';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { RetryState } from '@temporalio/common';
import { AppError } from '../domain/platform/errors.js';
import { temporalPaymentMethodWorkflows } from './payment-methods.js';

const clientWhoseExecute = (execute: () => Promise<unknown>) =>
  ({ workflow: { execute } }) as unknown as Client;

const input = {
  requestId: 'request-1',
  organizationId: 'organization-1',
  customerId: 'customer-1',
  confirmationTokenId: 'pm_card_visa',
  setDefault: true,
};

describe('temporalPaymentMethodWorkflows.setUp', () => {
  it('answers a save that no worker finished in time as a 503 the buyer can retry', async () => {
    const workflows = temporalPaymentMethodWorkflows(
      clientWhoseExecute(() =>
        Promise.reject(new WorkflowFailedError('timed out', undefined, RetryState.TIMEOUT)),
      ),
      'tollgate',
    );
    const refusal = await workflows.setUp(input).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      status: 503,
      message: 'Saving cards is not available right now. Try again in a minute.',
    });
  });

  it('passes other failures through and answers the outcome of a finished save', async () => {
    const broken = temporalPaymentMethodWorkflows(
      clientWhoseExecute(() => Promise.reject(new Error('connection refused'))),
      'tollgate',
    );
    await expect(broken.setUp(input)).rejects.toThrow('connection refused');
    const saved = temporalPaymentMethodWorkflows(
      clientWhoseExecute(() => Promise.resolve({ status: 'saved', paymentMethodId: 'card-1' })),
      'tollgate',
    );
    expect(await saved.setUp(input)).toEqual({ status: 'saved', paymentMethodId: 'card-1' });
  });
});
