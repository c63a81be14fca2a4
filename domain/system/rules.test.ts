import { describe, expect, it } from '@jest/globals';
import { summarizeReadiness } from './rules.js';
import type { ReadinessCheck } from './schemas.js';

const ok: ReadinessCheck = { status: 'ok', duration_ms: 3 };
const failing: ReadinessCheck = { status: 'error', duration_ms: 5000, detail: 'timed out' };

describe('summarizeReadiness', () => {
  const checkedAt = new Date('2026-11-22T10:00:00Z');

  it('is ok only when every check is ok', () => {
    expect(summarizeReadiness({ postgres: ok, temporal: ok, worker: ok }, checkedAt).status).toBe('ok');
  });

  it.each(['postgres', 'temporal', 'worker'] as const)('is an error when %s fails', (failingName) => {
    const checks = { postgres: ok, temporal: ok, worker: ok, [failingName]: failing };
    const report = summarizeReadiness(checks, checkedAt);
    expect(report.status).toBe('error');
    expect(report.checks[failingName]).toEqual(failing);
  });

  it('stamps the report in UTC ISO-8601', () => {
    expect(summarizeReadiness({ postgres: ok, temporal: ok, worker: ok }, checkedAt).checked_at).toBe(
      '2026-11-22T10:00:00.000Z',
    );
  });
});
