import type { ReadinessChecks, ReadinessReport } from './schemas.js';

/** Ready only when every dependency answered: a partial system must not take traffic. */
export function summarizeReadiness(checks: ReadinessChecks, checkedAt: Date): ReadinessReport {
  const allOk = Object.values(checks).every((check) => check.status === 'ok');
  return { status: allOk ? 'ok' : 'error', checks, checked_at: checkedAt.toISOString() };
}
