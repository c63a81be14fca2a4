import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs, intervalMs = 200 }: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not allocate a port'));
      });
    });
  });
}

/**
 * Spawns a child whose output goes to `logFile` (appended), so the console stays readable. It
 * gets its own process group: a terminal's Ctrl-C then reaches only its parent, which stops
 * children in order (the API drains before the database goes away).
 */
export function spawnLogged(
  command: string,
  args: string[],
  options: SpawnOptions & { logFile: string },
): ChildProcess {
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  child.once('exit', () => setTimeout(() => log.end(), 50));
  return child;
}

/**
 * Whether a live process is left in the group `pgid` leads. Zombies do not count: an orphan killed
 * here is reaped by whoever adopted it, which in a container may be never.
 */
function groupAlive(pgid: number): boolean {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      // `pid (comm) state ppid pgrp …`: comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z';
    } catch {
      return false; // Ended while we looked.
    }
  });
}

/**
 * Sends `signal`, then SIGKILL after `graceMs`; resolves when the process and the rest of its
 * process group have exited. Children are spawned detached, each leading its own group: a process
 * killed after its grace (PostgreSQL's postmaster, say) leaves its own children to notice alone,
 * so they are waited for and, if they linger, killed with the group.
 */
export function stopChild(
  child: ChildProcess,
  { signal = 'SIGTERM' as NodeJS.Signals, graceMs = 10_000 } = {},
) {
  const pgid = child.pid;
  const leftovers = async () => {
    if (pgid === undefined) return;
    const deadline = Date.now() + 5_000;
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    if (!groupAlive(pgid)) return;
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      return; // Gone meanwhile.
    }
    while (groupAlive(pgid) && Date.now() < deadline + 5_000)
      await new Promise((done) => setTimeout(done, 50));
  };
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  }).then(leftovers);
}
