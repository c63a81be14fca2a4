import { afterEach, beforeEach, jest } from '@jest/globals';
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
 * A time-skipping server of each test's own, and one retry of a test that failed. The test server
 * can stop skipping for good partway through a test on a loaded machine (a time lock it never
 * releases, as in temporalio/sdk-java#3088): the test then times out whatever it tests, and
 * every later test on that server too. A server per test (it starts in under a second) keeps that
 * to the one test, and the retry runs it again on a new server; a failure of the code under test
 * fails both runs. Each retry's first errors are printed, and `npm test` lists the retried tests.
 */
export function timeSkippingServerOfTest() {
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
  let environment: TestWorkflowEnvironment | undefined;
  beforeEach(async () => {
    environment = await createTimeSkippingEnvironment();
  });
  afterEach(async () => {
    const ended = environment;
    environment = undefined;
    if (!ended) return;
    if (!(await clockSkips(ended))) {
      console.warn('the time-skipping server’s clock had stopped skipping by the end of this test');
    }
    await ended.teardown();
  }, 30_000);
  return () => {
    if (!environment) throw new Error('the time-skipping server is started in beforeEach');
    return environment;
  };
}
