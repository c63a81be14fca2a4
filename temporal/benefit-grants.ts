// The benefit-grant workflows as the benefit-grants domain sees them (BenefitGrantWorkflows).

import type { Client } from '@temporalio/client';
import {
  BENEFIT_GRANT_SIGNALS,
  benefitGrantDispatcherWorkflowId,
  benefitGrantWorkflowId,
} from '../domain/benefit-grants/rules.js';
import type { BenefitGrantWorkflows } from '../domain/benefit-grants/service.js';
import type {
  benefitGrantDispatcherWorkflow,
  benefitGrantWorkflow,
  BenefitGrantWorkflowInput,
} from '../workflows/benefit-grants.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startOnce } from './workflow-control.js';

/** Wakes at most this many grant workflows at once: a benefit edited for thousands of buyers. */
const WAKE_CONCURRENCY = 16;

export function temporalBenefitGrantWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): BenefitGrantWorkflows {
  const wakeOne = async (pair: BenefitGrantWorkflowInput) =>
    temporal.workflow.signalWithStart<typeof benefitGrantWorkflow, []>('benefitGrantWorkflow', {
      workflowId: benefitGrantWorkflowId(pair.customerId, pair.benefitId),
      taskQueue,
      args: [{ customerId: pair.customerId, benefitId: pair.benefitId }],
      signal: BENEFIT_GRANT_SIGNALS.changed,
      signalArgs: [],
      ...(await operators.entity('benefit_grant', `${pair.customerId}:${pair.benefitId}`, 'applying')),
    });
  return {
    ensureDispatcher: () =>
      startOnce(() =>
        temporal.workflow.start<typeof benefitGrantDispatcherWorkflow>('benefitGrantDispatcherWorkflow', {
          workflowId: benefitGrantDispatcherWorkflowId(taskQueue),
          taskQueue,
          args: [],
          ...operators.system('benefit_grant_dispatcher'),
        }),
      ),
    async wake(pairs) {
      for (let next = 0; next < pairs.length; next += WAKE_CONCURRENCY) {
        await Promise.all(pairs.slice(next, next + WAKE_CONCURRENCY).map(wakeOne));
      }
    },
  };
}
