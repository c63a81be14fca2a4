// The customer-meter refresher as the usage domain sees it (CustomerMeterWorkflows).

import type { Client } from '@temporalio/client';
import {
  customerMeterRefresherWorkflowId,
  type CustomerMeterWorkflows,
} from '../domain/customer-meters/service.js';
import type { customerMeterRefresherWorkflow } from '../workflows/customer-meters.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startOnce } from './workflow-control.js';

export function temporalCustomerMeterWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): CustomerMeterWorkflows {
  return {
    ensureRefresher: () =>
      startOnce(() =>
        temporal.workflow.start<typeof customerMeterRefresherWorkflow>('customerMeterRefresherWorkflow', {
          workflowId: customerMeterRefresherWorkflowId(taskQueue),
          taskQueue,
          args: [],
          ...operators.system('customer_meter_refresher'),
        }),
      ),
  };
}
