// Jest projects: unit (pure, no I/O), integration (real PostgreSQL + Temporal over real sockets),
// schemathesis (the API fuzzed from its OpenAPI document), workflow (Temporal's time-skipping
// server), e2e (the started stack in Chromium).
// Run them through `npm test` / `npm run test:<project>`: scripts/test.ts starts the services.
const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'es6' },
  },
];

const common = {
  rootDir: import.meta.dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': swcTransform },
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  // Sources import NodeNext-style `./x.js`; Jest must find `./x.ts`.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  modulePathIgnorePatterns: [
    '<rootDir>/dist/',
    '<rootDir>/.data/',
    '<rootDir>/.tools/',
    '<rootDir>/.venv-st/',
  ],
};

export default {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/*.test.ts?(x)'],
      testPathIgnorePatterns: [
        '/node_modules/',
        '\\.int\\.test\\.ts$',
        '\\.st\\.test\\.ts$',
        '\\.wf\\.test\\.ts$',
        '\\.e2e\\.test\\.ts$',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/**/*.int.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...common,
      displayName: 'schemathesis',
      testMatch: ['<rootDir>/**/*.st.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...common,
      displayName: 'workflow',
      testMatch: ['<rootDir>/**/*.wf.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.e2e.test.ts'],
      // The stack and Chromium the browser tests share, started when the first file asks.
      globalSetup: '<rootDir>/e2e/global-setup.js',
      globalTeardown: '<rootDir>/e2e/global-teardown.js',
      testPathIgnorePatterns: ['/node_modules/'],
    },
  ],
};
