// The services scripts/test.ts starts for a run, handed to test files through the environment.
export const testEnvKeys = {
  adminDatabaseUrl: 'TOLLGATE_TEST_ADMIN_DATABASE_URL',
  templateDatabase: 'TOLLGATE_TEST_TEMPLATE_DATABASE',
  temporalAddress: 'TOLLGATE_TEST_TEMPORAL_ADDRESS',
  timeSkippingServer: 'TOLLGATE_TEST_TIME_SKIPPING_SERVER',
  workflowBundle: 'TOLLGATE_TEST_WORKFLOW_BUNDLE',
} as const;

export function requireTestEnv(key: keyof typeof testEnvKeys): string {
  const value = process.env[testEnvKeys[key]];
  if (!value) {
    throw new Error(
      `${testEnvKeys[key]} is not set: run tests through \`npm test\` or \`npm run test:<project>\`, which start PostgreSQL and Temporal`,
    );
  }
  return value;
}
