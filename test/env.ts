// The services scripts/test.ts starts for a run, handed to test files through the environment.
export const testEnvKeys = {
  adminDatabaseUrl: 'TOLLGATE_TEST_ADMIN_DATABASE_URL',
  templateDatabase: 'TOLLGATE_TEST_TEMPLATE_DATABASE',
  temporalAddress: 'TOLLGATE_TEST_TEMPORAL_ADDRESS',
  timeSkippingServer: 'TOLLGATE_TEST_TIME_SKIPPING_SERVER',
  workflowBundle: 'TOLLGATE_TEST_WORKFLOW_BUNDLE',
  /** stripe-mock's base URL: Stripe's API for the Stripe processor's tests. */
  stripeMockUrl: 'TOLLGATE_TEST_STRIPE_MOCK_URL',
  /** The provisioned Schemathesis CLI (.venv-st). */
  schemathesis: 'TOLLGATE_TEST_SCHEMATHESIS',
  /** The python of the provisioned Polar Python SDK (.venv-polar). */
  polarPython: 'TOLLGATE_TEST_POLAR_PYTHON',
} as const;

export function requireTestEnv(key: keyof typeof testEnvKeys): string {
  const value = process.env[testEnvKeys[key]];
  if (!value) {
    throw new Error(
      `${testEnvKeys[key]} is not set: run tests through \`npm test\` or \`npm run test:<project>\`, which start PostgreSQL, Temporal and stripe-mock`,
    );
  }
  return value;
}
