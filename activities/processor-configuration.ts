import {
  clearProcessorConfigurationProblem,
  recordProcessorConfigurationProblem,
} from '../domain/payments/configuration.js';
import type { ProcessorEntity } from '../domain/payments/rules.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { Db } from '../infra/db.js';

export type ProcessorConfigurationActivityDeps = { db: Db; processor: PaymentProcessor };

/** What a workflow held back by the processor's configuration tells the organization's dashboard. */
export function createProcessorConfigurationActivities(deps: ProcessorConfigurationActivityDeps) {
  return {
    recordProcessorConfigurationProblem(input: {
      entity: ProcessorEntity;
      code: string;
      message: string;
      atMs: number;
    }): Promise<void> {
      return recordProcessorConfigurationProblem(deps.db, {
        entity: input.entity,
        processor: deps.processor.name,
        code: input.code,
        message: input.message,
        at: new Date(input.atMs),
      });
    },
    clearProcessorConfigurationProblem(entity: ProcessorEntity): Promise<void> {
      return clearProcessorConfigurationProblem(deps.db, entity);
    },
  };
}

export type ProcessorConfigurationActivities = ReturnType<typeof createProcessorConfigurationActivities>;
