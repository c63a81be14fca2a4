import { proxyActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../activities/payments.js';

const { redeliverProcessorEvents } = proxyActivities<PaymentActivities>({ startToCloseTimeout: '5 minutes' });

/**
 * Run by the `redeliver-processor-events` schedule: processor events recorded but never handed to
 * their workflow (the hand-over failed, or the process died) are handed over again.
 */
export async function redeliverProcessorEventsWorkflow(): Promise<{ redeliveredEvents: number }> {
  return redeliverProcessorEvents();
}
