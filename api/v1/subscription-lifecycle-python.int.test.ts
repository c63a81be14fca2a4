// Issue 34's lifecycle through Polar's Python SDK 1.0.2 (polar-sdk), once per dated version:
// test/polar-python/lifecycle.py drives every seller call with `from polar.v<version> import
// Polar` (strict models: a missing field, a wrong type or an unknown enum value fails the
// scenario) and checks the webhooks with the version's validate_event; the test clocks, our
// extension, go over plain HTTP. The same scenarios as subscription-lifecycle-sdk.int.test.ts.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { requireTestEnv } from '../../test/env.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';
import { projectRoot } from '../../scripts/lib/paths.js';
import { API_VERSIONS } from '../../domain/platform/api-versions.js';

const execFileAsync = promisify(execFile);
const LIFECYCLE = path.join(projectRoot, 'test', 'polar-python', 'lifecycle.py');
const RUN_TIMEOUT_MS = 240_000;

const SCENARIOS = [
  'trial_converted',
  'trial_cancelled',
  'trial_first_charge_declined',
  'pause_resumed_at_resumes_at',
  'pause_resumed_by_hand',
  'next_period_change_applied_and_cleared',
  'seat_changes_now_and_at_the_renewal',
  'every_three_months_two_years',
  'meter_cycles_monthly_on_a_yearly_plan',
];

type Report = {
  version: string;
  client_version: string;
  polar_version_echoed: boolean;
  versions_answered: Record<string, number>;
  scenarios: Record<string, { ok: true } | { ok: false; error: string; detail: string }>;
};

describe('the subscription lifecycle through polar-sdk 1.0.2, per Polar-Version', () => {
  const env = useTestStack();

  it.each(API_VERSIONS)(
    '%s: trials, pause and resume, next-period and seat changes, every-3-months plans and meter cycles, strictly loaded',
    async (version) => {
      // An organization per version: its clocks and customers are its own.
      const organization = await createOrganization(env.database.db, { name: `Lifecycle ${version}` });
      const token = await createAccessToken(env.database.db, organization.id);
      const python = requireTestEnv('polarPython');
      const seed = { base_url: env.stack.baseUrl, token, version };
      const { stdout } = await execFileAsync(python, [LIFECYCLE, JSON.stringify(seed)], {
        timeout: RUN_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      });
      const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Report;
      expect(report.client_version).toBe(version);
      expect(Object.keys(report.scenarios)).toEqual(SCENARIOS);
      const failing = Object.entries(report.scenarios).filter(([, result]) => !result.ok);
      expect(failing).toEqual([]);
      expect(report.versions_answered).toEqual({ [version]: expect.any(Number) });
      expect(report.polar_version_echoed).toBe(true);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
