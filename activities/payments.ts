import { redeliverProcessorEvents } from '../domain/payments/events.js';
import type { ProcessorEventSink } from '../domain/payments/processor.js';
import type { Db } from '../infra/db.js';

export type PaymentActivityDeps = { db: Db; workflows: { processorEvents: ProcessorEventSink } };

export function createPaymentActivities(deps: PaymentActivityDeps) {
  return {
    /** Processor events whose hand-over to a workflow failed (or whose process died) go again. */
    async redeliverProcessorEvents(): Promise<{ redeliveredEvents: number }> {
      const { delivered } = await redeliverProcessorEvents(deps.db, deps.workflows.processorEvents);
      return { redeliveredEvents: delivered };
    },
  };
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;
