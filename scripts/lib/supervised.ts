import { spawn, type ChildProcess } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import path from 'node:path';
import { isProcessAlive, stopChild, waitFor } from '../../infra/processes.js';

type Options = {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  runDir: string;
  logFile: string;
  /** Restart after an unexpected exit (API, worker); otherwise report it as fatal. */
  restart: boolean;
  onLine?: (line: string) => void;
  onFatalExit?: (code: number | null) => void;
  stopSignal?: NodeJS.Signals;
};

const pidFile = (runDir: string, name: string) => path.join(runDir, `${name}.pid`);

/**
 * A process from an earlier run that was SIGKILLed would still hold its port. The pid file names
 * it; the command line confirms it is ours before it is stopped.
 */
export async function stopLeftover(runDir: string, name: string, expectedInCommand: string) {
  const file = pidFile(runDir, name);
  if (!existsSync(file)) return false;
  const pid = Number(readFileSync(file, 'utf8').trim());
  rmSync(file, { force: true });
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return false;
  const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
  if (!cmdline.includes(expectedInCommand)) return false;
  process.kill(-pid, 'SIGTERM');
  await waitFor(
    `leftover ${name} (PID ${pid}) to stop`,
    async () => (isProcessAlive(pid) ? undefined : true),
    {
      timeoutMs: 15_000,
    },
  ).catch(() => process.kill(-pid, 'SIGKILL'));
  return true;
}

/** A child in its own process group, so a terminal's Ctrl-C reaches only the supervisor, which stops children in order. */
export class SupervisedProcess {
  private child?: ChildProcess;
  private stopping = false;
  private restarts = 0;
  private readonly log: WriteStream;

  constructor(private readonly options: Options) {
    mkdirSync(path.dirname(options.logFile), { recursive: true });
    mkdirSync(options.runDir, { recursive: true });
    this.log = createWriteStream(options.logFile, { flags: 'a' });
  }

  get pid() {
    return this.child?.pid;
  }

  start() {
    const { command, args, env, name } = this.options;
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    if (child.pid) writeFileSync(pidFile(this.options.runDir, name), String(child.pid));
    let pending = '';
    const onData = (chunk: Buffer) => {
      this.log.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) this.options.onLine?.(line);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      rmSync(pidFile(this.options.runDir, name), { force: true });
      if (this.stopping) return;
      if (!this.options.restart) {
        this.options.onFatalExit?.(code);
        return;
      }
      // Exponential back-off, so a process that cannot start does not spin.
      const delayMs = Math.min(30_000, 1000 * 2 ** this.restarts++);
      this.options.onLine?.(
        JSON.stringify({
          level: 40,
          msg: `${name} exited (${signal ?? `code ${code}`}); restarting in ${delayMs / 1000} s`,
        }),
      );
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, delayMs).unref();
    });
    return this;
  }

  /** Resets the back-off once the process has proved healthy. */
  markHealthy() {
    this.restarts = 0;
  }

  async stop(graceMs = 15_000) {
    this.stopping = true;
    if (this.child) await stopChild(this.child, { signal: this.options.stopSignal ?? 'SIGTERM', graceMs });
    this.log.end();
  }
}
