// A harness check, not product code: proves the time-skipping server jumps over long timers.
import { proxyActivities, sleep } from '@temporalio/workflow';

type TimerActivities = { recordWakeUp(sleptMs: number): Promise<string> };

const { recordWakeUp } = proxyActivities<TimerActivities>({ startToCloseTimeout: '10 seconds' });

export async function sleepThenRecord(
  durationMs: number,
): Promise<{ workflowElapsedMs: number; recorded: string }> {
  const startedAt = Date.now();
  await sleep(durationMs);
  const workflowElapsedMs = Date.now() - startedAt;
  return { workflowElapsedMs, recorded: await recordWakeUp(workflowElapsedMs) };
}
