import { afterAll, afterEach, beforeAll } from '@jest/globals';
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

const DAY_MS = 24 * 60 * 60 * 1000;
/** A day of idle server time takes milliseconds when the clock skips; this is far beyond that. */
const SKIP_DEADLINE_MS = 5_000;

/**
 * Whether the server's clock still skips: a day of sleep with nothing running must end at once.
 * The test server keeps a time lock for ever when a run is terminated while one of its tasks is in
 * flight (temporalio/sdk-java#3088): every later sleep then runs in real time and the next test
 * times out, whatever it tests. A loaded machine makes that race likely.
 */
export async function clockSkips(env: TestWorkflowEnvironment): Promise<boolean> {
  const slept = env.sleep(DAY_MS).then(
    () => true,
    () => false,
  );
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    deadline = setTimeout(() => resolve(false), SKIP_DEADLINE_MS);
  });
  try {
    return await Promise.race([slept, late]);
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * The file's time-skipping server, replaced between tests when its clock stopped skipping (see
 * `clockSkips`): the wedge is the test server's, left behind by the test before, and each test
 * reads the server's time afresh, so a new server changes nothing a test asserts.
 */
export function timeSkippingServerOfFile() {
  let environment: TestWorkflowEnvironment | undefined;
  beforeAll(async () => {
    environment = await createTimeSkippingEnvironment();
  });
  afterEach(async () => {
    if (!environment || (await clockSkips(environment))) return;
    console.warn('the time-skipping server’s clock stopped skipping after this test: starting a new server');
    await environment.teardown().catch(() => undefined);
    environment = await createTimeSkippingEnvironment();
  }, 60_000);
  afterAll(async () => {
    await environment?.teardown();
  });
  return () => {
    if (!environment) throw new Error('the time-skipping server is started in beforeAll');
    return environment;
  };
}
