// Schemathesis (PyPI, provisioned into .venv-st by `npm run provision`) against the OpenAPI
// document of a running stack: every operation, every check, a bounded number of examples
// (scripts/schemathesis/schemathesis.toml). Any 5xx, undocumented status or answer that breaks its
// documented schema fails the run; the full report is in $DATA_DIR/logs/schemathesis.log.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { projectRoot, resolveDataDir } from '../../scripts/lib/paths.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { requireTestEnv } from '../../test/env.js';
import { useTestStack } from '../../test/stack.js';

const dataDir = resolveDataDir(process.env.DATA_DIR ?? '.data');

describe('Schemathesis against /v1/openapi.json', () => {
  // The run's requests must not be throttled: a 429 would hide what an operation answers.
  const env = useTestStack({ apiRateLimitPerMinute: 1_000_000, checkoutClientRateLimitPerMinute: 1_000_000 });
  let token: string;

  beforeAll(async () => {
    const organization = await createOrganization(env.database.db);
    token = await createAccessToken(env.database.db, organization.id);
  });

  it('finds no server error, undocumented status or answer outside its schema', async () => {
    const args = [
      '--config-file',
      path.join(projectRoot, 'scripts', 'schemathesis', 'schemathesis.toml'),
      'run',
      `${env.stack.baseUrl}/v1/openapi.json`,
      '--url',
      env.stack.baseUrl,
      '--header',
      `Authorization: Bearer ${token}`,
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
    writeFileSync(path.join(dataDir, 'logs', 'schemathesis.log'), report);
    if (code !== 0) console.log(report);
    expect(code).toBe(0);
  });
});
