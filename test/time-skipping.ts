import { TestWorkflowEnvironment } from '@temporalio/testing';
import { registerSearchAttributes } from '../temporal/entity-directory.js';
import { requireTestEnv } from './env.js';

/**
 * Temporal's Java test server (provisioned from Maven Central): timers complete as soon as nothing
 * else can happen. It refuses starts with search attributes it does not know, and registers them
 * through the operator service like a real server.
 */
export async function createTimeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: requireTestEnv('timeSkippingServer') } },
  });
  const registration = await registerSearchAttributes(env.client, env.namespace ?? 'default');
  if (!registration.registered) {
    await env.teardown();
    throw new Error(`the time-skipping server refused the search attributes: ${registration.reason}`);
  }
  return env;
}
