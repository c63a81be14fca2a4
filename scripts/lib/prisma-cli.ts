import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from './paths.js';

const execFileAsync = promisify(execFile);
const prismaBin = path.join(projectRoot, 'node_modules', '.bin', 'prisma');

export async function runPrisma(args: string[], databaseUrl: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(prismaBin, args, {
      cwd: projectRoot,
      // No update check: it phones home from a detached child process that outlives the command
      // (and would outlive `npm start`'s Ctrl-C); Tollgate runs offline.
      env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`prisma ${args.join(' ')} failed: ${(stderr || stdout || String(error)).trim()}`, {
      cause: error,
    });
  }
}

export const migrateDeploy = (databaseUrl: string) => runPrisma(['migrate', 'deploy'], databaseUrl);
