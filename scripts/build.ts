// Production build: the server (tsc → dist/), the pre-bundled workflows (dist/workflow-bundle.js)
// and the web app (vite → dist/web). `npm start` runs it only when something it reads has changed
// since the last build (`checkBuild`); `npm run build` always does.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import type * as BundleModule from '../temporal/bundle.js';
import {
  describeOutputChange,
  describeStaleness,
  hashInputs,
  listFiles,
  readBuildRecord,
  writeBuildRecord,
  type BuildSpec,
} from './lib/build-fingerprint.js';
import { projectRoot } from './lib/paths.js';

const execFileAsync = promisify(execFile);
const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);
const distDir = path.join(projectRoot, 'dist');
const recordFile = path.join(distDir, '.build-record.json');
// Not tsconfig.json's dist/.tsbuildinfo: `npm run typecheck` rewrites that one for another set of
// files without emitting, and the next build then compiled and emitted everything again.
const tsBuildInfoFile = path.join(distDir, 'build.tsbuildinfo');

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, signal?: AbortSignal) {
  try {
    await execFileAsync(command, args, {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
      // `npm start` aborts a build when it stops, so that no tsc or vite outlives it.
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(command)} ${args.join(' ')} failed:\n${(stdout + stderr).trim()}`, {
      cause: error,
    });
  }
}

/** The folders tsc compiles, read from tsconfig.build.json so that the two cannot drift apart. */
function compiledFolders(): string[] {
  const file = path.join(projectRoot, 'tsconfig.build.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { include: string[] }).include;
  } catch (error) {
    throw new Error(`${file} must stay plain JSON with an include list (scripts/build.ts reads it)`, {
      cause: error,
    });
  }
}

// Written by the build from other inputs (prisma/schema.prisma, web/routes/), so never inputs.
const derivedFiles = ['generated', 'web/routeTree.gen.ts'];
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Everything the build reads and writes; `npm start` compares it with the last build's record. */
export function buildSpec(): BuildSpec {
  // Vite bakes VITE_* variables into the web app.
  const viteEnv = Object.entries(process.env)
    .filter(([name]) => name.startsWith('VITE_'))
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  return {
    root: projectRoot,
    inputs: [
      ...compiledFolders(),
      'web',
      'prisma/schema.prisma',
      'prisma.config.ts',
      'tsr.config.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'package.json',
      'package-lock.json',
      // What npm installed, should node_modules and package-lock.json disagree.
      'node_modules/.package-lock.json',
      'scripts/build.ts',
      'scripts/lib/build-fingerprint.ts',
    ],
    outputs: ['dist'],
    isIgnored: (file) =>
      derivedFiles.includes(file) ||
      // In no output: tsconfig.build.json excludes them, and Vite bundles only what index.html reaches.
      isTest(file) ||
      // tsc's incremental state (`npm run typecheck` rewrites dist/.tsbuildinfo) and the record itself.
      file.endsWith('.tsbuildinfo') ||
      file === path.relative(projectRoot, recordFile),
    salt: [`Node.js ${process.version}`, ...viteEnv].join(' '),
  };
}

/** Sources whose compiled file is missing from dist/. */
function missingCompiledFiles(): string[] {
  return listFiles(projectRoot, compiledFolders(), isTest)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(distDir, file.replace(/\.ts$/, '.js')))
    .filter((file) => !existsSync(file));
}

/** `typesChecked`: the caller type-checks these sources itself (`npm test`), so tsc only emits. */
async function compileServer(signal?: AbortSignal, typesChecked = false) {
  const args = ['-p', 'tsconfig.build.json', '--tsBuildInfoFile', tsBuildInfoFile];
  const tsc = () => run(bin('tsc'), typesChecked ? [...args, '--noCheck'] : args, {}, signal);
  await tsc();
  // Incremental tsc trusts its state file and never re-emits an output deleted behind its back.
  if (missingCompiledFiles().length === 0) return;
  rmSync(tsBuildInfoFile, { force: true });
  await tsc();
}

export const buildSteps = {
  'generate clients': async (signal?: AbortSignal) => {
    // No update check: Prisma runs it in a detached child that would outlive the build.
    await run(bin('prisma'), ['generate'], { CHECKPOINT_DISABLE: '1' }, signal);
    await run(bin('tsr'), ['generate'], {}, signal);
  },
  'compile server': compileServer,
  'bundle workflows': async () => {
    // Import the compiled bundler so that the bundle is made from dist/workflows.
    const compiled = path.join(projectRoot, 'dist', 'temporal', 'bundle.js');
    const { bundleWorkflows } = (await import(pathToFileURL(compiled).href)) as typeof BundleModule;
    const bundle = await bundleWorkflows();
    await writeFile(path.join(projectRoot, 'dist', 'workflow-bundle.js'), bundle.code);
    // The worker runs this one when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT; temporal/run-worker.ts).
    const traced = await bundleWorkflows({ tracing: true });
    await writeFile(path.join(projectRoot, 'dist', 'workflow-bundle-traced.js'), traced.code);
  },
  // NODE_ENV decides React's build; a caller's `test` or `development` must not leak into it.
  'build web app': (signal?: AbortSignal) =>
    run(
      bin('vite'),
      ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
      { NODE_ENV: 'production' },
      signal,
    ),
} as const;

type Progress = (step: string, ms: number) => void;
type BuildOptions = {
  /** The inputs as hashed before the build, when the caller has them already. */
  inputs?: Record<string, string>;
  /**
   * The caller generated the clients just before (`npm test`): regenerating them would delete
   * files that its type check, running beside the build, is reading.
   */
  clientsGenerated?: boolean;
  /** The caller type-checks the same sources beside the build (`npm test`'s static checks). */
  typesChecked?: boolean;
  signal?: AbortSignal;
};

/**
 * The whole build. Its inputs are hashed before it starts, so that a file edited while it runs
 * differs from the record and is built next time.
 */
export async function build(progress: Progress = () => undefined, options: BuildOptions = {}) {
  const spec = buildSpec();
  const inputs = options.inputs ?? hashInputs(spec);
  const record = readBuildRecord(recordFile);
  // An output changed or deleted since the last build: incremental tsc would not restore it.
  if (record && describeOutputChange(spec, record)) rmSync(tsBuildInfoFile, { force: true });
  // An interrupted or failed build must not pass for a finished one.
  rmSync(recordFile, { force: true });

  // One after the other: side by side, Vite and tsc were no faster on two cores.
  for (const [name, step] of Object.entries(buildSteps)) {
    if (name === 'generate clients' && options.clientsGenerated) continue;
    const started = Date.now();
    await step(options.signal, options.typesChecked);
    progress(name, Date.now() - started);
  }
  writeBuildRecord(spec, recordFile, inputs);
}

/**
 * Why the last build is no longer current (undefined when it is: `npm start` then skips the build),
 * and the inputs as hashed for that answer, for `build` to record.
 */
export function checkBuild(): { reason: string | undefined; inputs: Record<string, string> } {
  const spec = buildSpec();
  const inputs = hashInputs(spec);
  return { reason: describeStaleness(spec, readBuildRecord(recordFile), inputs), inputs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await build((step, ms) => console.log(`  ✓ ${step} (${(ms / 1000).toFixed(1)} s)`), {
      clientsGenerated: process.argv.includes('--clients-generated'),
      typesChecked: process.argv.includes('--types-checked'),
    });
  } catch (error) {
    console.error(`tollgate: build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
