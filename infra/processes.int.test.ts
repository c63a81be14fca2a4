import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stopChild } from './processes.js';

/** Alive and not a zombie (an orphan killed here may wait for a reaper that never comes). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('stopChild', () => {
  // PostgreSQL's postmaster killed after its grace leaves its own children behind for a moment:
  // the supervisor must not exit before them (e2e/stack.e2e.test.ts saw four once).
  it('waits for the rest of the process group, killing what outlives the process it stopped', async () => {
    const child = spawn('sh', ['-c', 'trap "" TERM; sleep 60 & echo $!; wait'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const orphan = await new Promise<number>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(isRunning(orphan)).toBe(true);
    await stopChild(child, { signal: 'SIGTERM', graceMs: 200 });
    expect(child.signalCode).toBe('SIGKILL');
    expect(isRunning(orphan)).toBe(false);
  }, 20_000);
});
