import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFreePort, waitFor } from '../../infra/processes.js';
import { projectRoot, toolPaths, toolsDir, toolVersions } from './paths.js';

const execFileAsync = promisify(execFile);

/** A prerequisite that cannot be had: printed as one line, never a stack trace. */
export class MissingToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingToolError';
  }
}

type Progress = (line: string) => void;

function which(command: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

const stampFile = (name: string) => path.join(toolsDir, 'stamps', `${name}.version`);
const isStamped = (name: string, version: string, binary: string) =>
  existsSync(binary) &&
  existsSync(stampFile(name)) &&
  readFileSync(stampFile(name), 'utf8').trim() === version;
function stamp(name: string, version: string) {
  mkdirSync(path.dirname(stampFile(name)), { recursive: true });
  writeFileSync(stampFile(name), `${version}\n`);
}

async function run(
  command: string,
  args: string[],
  logName: string,
  env: NodeJS.ProcessEnv = {},
  logDir = path.join(toolsDir, 'logs'),
) {
  const logFile = path.join(logDir, `${logName}.log`);
  mkdirSync(path.dirname(logFile), { recursive: true });
  try {
    const { stdout, stderr } = await execFileAsync(command, args, {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    writeFileSync(logFile, stdout + stderr);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    writeFileSync(logFile, stdout + stderr);
    throw new MissingToolError(
      `${command} ${args.join(' ')} failed; see ${path.relative(projectRoot, logFile)}`,
    );
  }
}

function requireGo(forWhat: string, alternative: string): string {
  const go = which('go');
  if (!go)
    throw new MissingToolError(`Go 1.25+ not found: install Go or ${alternative} (needed for ${forWhat})`);
  const version = spawnSync(go, ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout.trim();
  const [major = 0, minor = 0] = version.replace(/^go/, '').split('.').map(Number);
  if (major < 1 || (major === 1 && minor < 25)) {
    throw new MissingToolError(
      `Go 1.25+ not found (found ${version}): upgrade Go or ${alternative} (needed for ${forWhat})`,
    );
  }
  return go;
}

async function goInstall(name: string, module: string, version: string, binary: string, progress: Progress) {
  if (isStamped(name, version, binary)) return binary;
  const go = requireGo(name, `put \`${path.basename(binary)}\` in ${path.dirname(binary)}`);
  progress(`${name} ${version}: building with go install (first run only; can take several minutes)…`);
  await run(go, ['install', `${module}@${version}`], `${name}-build`, { GOBIN: path.dirname(binary) });
  stamp(name, version);
  return binary;
}

/** The Temporal CLI (dev server + Web UI). A `temporal` on PATH is used when Go is missing. */
export async function ensureTemporalCli(progress: Progress): Promise<string> {
  if (isStamped('temporal', toolVersions.temporalCli, toolPaths.temporal)) return toolPaths.temporal;
  const onPath = which('temporal');
  if (!which('go') && onPath) return onPath;
  if (!which('go')) {
    throw new MissingToolError(
      'Go 1.25+ not found: install Go or put `temporal` on PATH (Temporal CLI, needed to run the dev server)',
    );
  }
  return goInstall(
    'temporal',
    'github.com/temporalio/cli/cmd/temporal',
    toolVersions.temporalCli,
    toolPaths.temporal,
    progress,
  );
}

export async function ensureStripeMock(progress: Progress): Promise<string> {
  return goInstall(
    'stripe-mock',
    'github.com/stripe/stripe-mock',
    toolVersions.stripeMock,
    toolPaths.stripeMock,
    progress,
  );
}

/** An S3-compatible server (in memory) for the S3 file store's tests. */
export async function ensureFakeS3(progress: Progress): Promise<string> {
  return goInstall(
    'gofakes3',
    'github.com/johannesboyne/gofakes3/cmd/gofakes3',
    toolVersions.gofakes3,
    toolPaths.gofakes3,
    progress,
  );
}

/**
 * Temporal's time-skipping test server from Maven Central, behind a launcher that
 * `TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path' } } })`
 * can run: the SDK passes the port as the only argument.
 */
export async function ensureTemporalTestServer(progress: Progress): Promise<string> {
  const version = toolVersions.temporalTestServer;
  // The suffix names the launcher's shape, so an install from before the class archive is redone.
  const stampValue = `${version}+class-archive`;
  if (isStamped('temporal-test-server', stampValue, toolPaths.temporalTestServer))
    return toolPaths.temporalTestServer;
  const java = which('java');
  const mvn = which('mvn');
  if (!java || !mvn) {
    throw new MissingToolError(
      `${java ? 'Maven (mvn)' : 'Java 17+'} not found: install it (e.g. apt-get install ${java ? 'maven' : 'openjdk-17-jre-headless maven'}) for the Temporal time-skipping test server`,
    );
  }
  progress(`Temporal test server ${version}: resolving from Maven Central…`);
  const classpathFile = path.join(toolsDir, 'temporal-test-server.classpath');
  await run(
    mvn,
    [
      '-q',
      '-B',
      '-f',
      path.join(projectRoot, 'scripts', 'temporal-test-server', 'pom.xml'),
      `-Dtemporal.test-server.version=${version}`,
      'dependency:build-classpath',
      `-Dmdep.outputFile=${classpathFile}`,
    ],
    'temporal-test-server',
  );
  const classpath = readFileSync(classpathFile, 'utf8').trim();
  // Temporal's SDK gives the server 5 s to listen. A cold JVM needs ~2 s on an idle machine and
  // more on a busy one; a class-data archive of the server's own classes and a quick-start JIT
  // bring that to ~0.5 s.
  const archive = path.join(toolsDir, 'temporal-test-server.jsa');
  const quickStart = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
  progress(`Temporal test server ${version}: archiving its classes for a quick start…`);
  await archiveClasses(java, [...quickStart, '-cp', classpath, 'io.temporal.testserver.TestServer'], archive);
  mkdirSync(path.dirname(toolPaths.temporalTestServer), { recursive: true });
  writeFileSync(
    toolPaths.temporalTestServer,
    `#!/bin/sh\n# Generated by scripts/provision.ts: Temporal's Java test server with time skipping.\nexec "${java}" -XX:SharedArchiveFile='${archive}' -Xshare:auto ${quickStart.join(' ')} -cp "$(cat '${classpathFile}')" io.temporal.testserver.TestServer "$@"\n`,
  );
  chmodSync(toolPaths.temporalTestServer, 0o755);
  stamp('temporal-test-server', stampValue);
  return toolPaths.temporalTestServer;
}

/**
 * Runs a Java server (its last argument being the port) until it listens, then stops it, with the
 * JVM writing the classes it loaded to `archive` on the way out (a dynamic CDS archive).
 */
async function archiveClasses(java: string, args: string[], archive: string): Promise<void> {
  rmSync(archive, { force: true });
  const port = await findFreePort();
  const child = spawn(java, [`-XX:ArchiveClassesAtExit=${archive}`, ...args, String(port)], {
    stdio: 'ignore',
  });
  try {
    await waitFor(
      'the test server to listen',
      () =>
        new Promise<true | undefined>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(undefined));
        }),
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Debian's Chromium for the browser tests; installed with apt-get when running as root. */
export async function ensureChromium(progress: Progress): Promise<string> {
  if (existsSync(toolPaths.chromium)) return toolPaths.chromium;
  if (process.getuid?.() !== 0 || !which('apt-get')) {
    throw new MissingToolError(
      `Chromium not found at ${toolPaths.chromium}: install Debian's chromium package (apt-get install chromium)`,
    );
  }
  progress('Chromium: installing the Debian package…');
  await run('apt-get', ['update', '-qq'], 'apt-update');
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], 'chromium-install', {
    DEBIAN_FRONTEND: 'noninteractive',
  });
  return toolPaths.chromium;
}

/** A Python package from PyPI in a virtual environment of the checkout's own, every package pinned. */
type PythonTool = {
  /** As the requirements pin it (`schemathesis`, `polar-sdk`). */
  package: string;
  version: string;
  venv: string;
  requirements: string;
  /** What the caller runs, inside the environment: its presence says the install finished. */
  entry: string;
  minPython: readonly [number, number];
};

/**
 * Builds `tool.venv` from `tool.requirements` once, and again only when the pins change (their
 * hash is stamped inside the environment), so `npm test` downloads nothing. Needs `python3` of at
 * least `tool.minPython` with its venv module.
 */
async function ensurePythonTool(tool: PythonTool, progress: Progress): Promise<string> {
  const requirements = readFileSync(tool.requirements, 'utf8');
  const requirementsName = path.relative(projectRoot, tool.requirements);
  const venvName = path.relative(projectRoot, tool.venv);
  if (!requirements.split('\n').includes(`${tool.package}==${tool.version}`)) {
    throw new MissingToolError(
      `${requirementsName} does not pin ${tool.package}==${tool.version} (scripts/lib/paths.ts)`,
    );
  }
  const version = `${tool.version} ${createHash('sha256').update(requirements).digest('hex').slice(0, 12)}`;
  const stampPath = path.join(tool.venv, 'tollgate.version');
  if (existsSync(tool.entry) && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === version) {
    return tool.entry;
  }
  const python = which('python3');
  const found = python
    ? spawnSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
        encoding: 'utf8',
      }).stdout.trim()
    : '';
  const [major = 0, minor = 0] = found.split('.').map(Number);
  const [minMajor, minMinor] = tool.minPython;
  if (!python || major < minMajor || (major === minMajor && minor < minMinor)) {
    throw new MissingToolError(
      `Python ${minMajor}.${minMinor}+ not found${found ? ` (found ${found})` : ''}: install it with its venv module (e.g. apt-get install python3 python3-venv) for ${tool.package} ${tool.version}`,
    );
  }
  progress(`${tool.package} ${tool.version}: installing from PyPI into ${venvName} (first run only)…`);
  // A half-built environment from an interrupted run is never reused: start from nothing.
  rmSync(tool.venv, { recursive: true, force: true });
  mkdirSync(tool.venv, { recursive: true });
  await run(python, ['-m', 'venv', tool.venv], 'create', {}, tool.venv);
  await run(
    path.join(tool.venv, 'bin', 'pip'),
    ['install', '--disable-pip-version-check', '--no-input', '-r', tool.requirements],
    'install',
    {},
    tool.venv,
  );
  writeFileSync(stampPath, `${version}\n`);
  return tool.entry;
}

/** Schemathesis (scripts/schemathesis/requirements.txt) in .venv-st; resolves to its CLI. */
export function ensureSchemathesis(progress: Progress): Promise<string> {
  return ensurePythonTool(
    {
      package: 'schemathesis',
      version: toolVersions.schemathesis,
      venv: toolPaths.schemathesisVenv,
      requirements: toolPaths.schemathesisRequirements,
      entry: toolPaths.schemathesis,
      minPython: [3, 10],
    },
    progress,
  );
}

/**
 * Polar's Python SDK (scripts/polar-python/requirements.txt) in .venv-polar, the oracle of
 * api/v1/python-sdk.int.test.ts; resolves to the environment's python. polar-sdk 1.x needs 3.11.
 */
export function ensurePolarPython(progress: Progress): Promise<string> {
  return ensurePythonTool(
    {
      package: 'polar-sdk',
      version: toolVersions.polarPython,
      venv: toolPaths.polarPythonVenv,
      requirements: toolPaths.polarPythonRequirements,
      entry: toolPaths.polarPython,
      minPython: [3, 11],
    },
    progress,
  );
}
