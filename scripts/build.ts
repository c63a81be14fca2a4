// Production build: the server (tsc → dist/), the pre-bundled workflows (dist/workflow-bundle.js)
// and the web app (vite → dist/web). `npm start` runs it; tsc is incremental, so re-runs are quick.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import type * as BundleModule from '../temporal/bundle.js';
import { projectRoot } from './lib/paths.js';

const execFileAsync = promisify(execFile);
const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    await execFileAsync(command, args, {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(command)} ${args.join(' ')} failed:\n${(stdout + stderr).trim()}`, {
      cause: error,
    });
  }
}

export const buildSteps = {
  'generate clients': async () => {
    // No update check: Prisma runs it in a detached child that would outlive the build.
    await run(bin('prisma'), ['generate'], { CHECKPOINT_DISABLE: '1' });
    await run(bin('tsr'), ['generate']);
  },
  'compile server': () => run(bin('tsc'), ['-p', 'tsconfig.build.json']),
  'bundle workflows': async () => {
    // Import the compiled bundler so that the bundle is made from dist/workflows.
    const compiled = path.join(projectRoot, 'dist', 'temporal', 'bundle.js');
    const { bundleWorkflows } = (await import(pathToFileURL(compiled).href)) as typeof BundleModule;
    const bundle = await bundleWorkflows();
    await writeFile(path.join(projectRoot, 'dist', 'workflow-bundle.js'), bundle.code);
  },
  // NODE_ENV decides React's build; a caller's `test` or `development` must not leak into it.
  'build web app': () =>
    run(bin('vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
      NODE_ENV: 'production',
    }),
} as const;

export async function build(progress: (step: string, ms: number) => void = () => undefined) {
  for (const [name, step] of Object.entries(buildSteps)) {
    const started = Date.now();
    await step();
    progress(name, Date.now() - started);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await build((step, ms) => console.log(`  ✓ ${step} (${(ms / 1000).toFixed(1)} s)`));
  } catch (error) {
    console.error(`tollgate: build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
