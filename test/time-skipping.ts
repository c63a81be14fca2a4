import { TestWorkflowEnvironment } from '@temporalio/testing';
import { requireTestEnv } from './env.js';

/** Temporal's Java test server (provisioned from Maven Central): timers complete as soon as nothing else can happen. */
export function createTimeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: requireTestEnv('timeSkippingServer') } },
  });
}
