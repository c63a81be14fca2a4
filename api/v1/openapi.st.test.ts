// Schemathesis (PyPI, provisioned into .venv-st by `npm run provision`) against the OpenAPI
// document of a running stack: every operation, every check, a bounded number of examples
// (scripts/schemathesis/schemathesis.toml). Any 5xx, undocumented status or answer that breaks its
// documented schema fails the run; the full report is in $DATA_DIR/logs/schemathesis.log.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { API_VERSIONS } from '../../domain/platform/api-versions.js';
import { projectRoot, resolveDataDir } from '../../scripts/lib/paths.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { requireTestEnv } from '../../test/env.js';
import { useTestStack } from '../../test/stack.js';

const dataDir = resolveDataDir(process.env.DATA_DIR ?? '.data');

/** Runs Schemathesis as `token`'s caller over the operations `filter` selects; answers its exit code. */
async function runSchemathesis(
  baseUrl: string,
  token: string,
  filter: string[],
  logName: string,
  document = `${baseUrl}/v1/openapi.json`,
) {
  const args = [
    '--config-file',
    path.join(projectRoot, 'scripts', 'schemathesis', 'schemathesis.toml'),
    'run',
    document,
    '--url',
    baseUrl,
    '--header',
    `Authorization: Bearer ${token}`,
    ...filter,
    '--checks',
    'all',
    '--no-color',
  ];
  // Hypothesis and Schemathesis keep caches in their working folder: the run's own, not the checkout.
  const workDir = path.join(dataDir, 'schemathesis');
  mkdirSync(workDir, { recursive: true });
  const output: string[] = [];
  const code = await new Promise<number>((resolve) => {
    const child = spawn(requireTestEnv('schemathesis'), args, { cwd: workDir });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  const report = output.join('');
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
  writeFileSync(path.join(dataDir, 'logs', logName), report);
  if (code !== 0) console.log(report);
  return code;
}

describe("Schemathesis against /v1/openapi.json and each version's document", () => {
  // The run's requests must not be throttled: a 429 would hide what an operation answers.
  const env = useTestStack({ apiRateLimitPerMinute: 1_000_000, checkoutClientRateLimitPerMinute: 1_000_000 });
  let token: string;

  beforeAll(async () => {
    const organization = await createOrganization(env.database.db);
    token = await createAccessToken(env.database.db, organization.id);
  });

  it('finds no server error, undocumented status or answer outside its schema', async () => {
    const code = await runSchemathesis(
      env.stack.baseUrl,
      token,
      ['--exclude-tag', 'customer_portal'],
      'schemathesis.log',
    );
    expect(code).toBe(0);
  });

  // The customer portal's operations are called by a customer, with a customer session.
  it('finds none in the customer portal either, called as a signed-in customer', async () => {
    // Made now: the run above deletes the customers it finds, and their sessions with them.
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const customer = await polar.customers.create({ email: 'schemathesis-portal@example.test' });
    const { token: customerToken } = await polar.customerSessions.create({ customerId: customer.id });
    const code = await runSchemathesis(
      env.stack.baseUrl,
      customerToken,
      // Signing out would end the run's session halfway: customer-portal.int.test.ts tests it.
      [
        '--include-tag',
        'customer_portal',
        '--exclude-operation-id',
        'customer_portal:customer_session:delete',
      ],
      'schemathesis-portal.log',
    );
    expect(code).toBe(0);
  });

  // Each dated version's own document, its requests naming the version (docs/api-versions.md). The
  // versions share the unversioned API's operations and differ in a few fields, so a few examples
  // per operation find what a version's shapes break without the full run's time, three times over.
  it.each(API_VERSIONS)('finds none in version %s, with its own document', async (version) => {
    const code = await runSchemathesis(
      env.stack.baseUrl,
      token,
      ['--header', `Polar-Version: ${version}`, '--exclude-tag', 'customer_portal', '--max-examples', '3'],
      `schemathesis-${version}.log`,
      `${env.stack.baseUrl}/${version}/openapi.json`,
    );
    expect(code).toBe(0);
  });
});
