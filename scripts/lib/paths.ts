import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Pinned tool versions; scripts/provision.ts installs exactly these. */
export const toolVersions = {
  temporalCli: 'v1.5.1',
  temporalTestServer: '1.38.0',
  stripeMock: 'v0.197.0',
  gofakes3: 'v1.2.0',
  /** From PyPI; its dependencies are pinned in scripts/schemathesis/requirements.txt. */
  schemathesis: '4.32.5',
  /** Polar's Python SDK (`polar-sdk`), pinned with its dependencies in scripts/polar-python/requirements.txt. */
  polarPython: '1.0.2',
} as const;

export const toolsDir = path.join(projectRoot, '.tools');
export const toolPaths = {
  temporal: path.join(toolsDir, 'bin', 'temporal'),
  stripeMock: path.join(toolsDir, 'bin', 'stripe-mock'),
  gofakes3: path.join(toolsDir, 'bin', 'gofakes3'),
  temporalTestServer: path.join(toolsDir, 'bin', 'temporal-test-server'),
  chromium: '/usr/bin/chromium',
  /**
   * A Python virtual environment of the checkout's own (not under .tools/, which several checkouts
   * of one machine may share through a link: a virtual environment records its absolute path).
   */
  schemathesisVenv: path.join(projectRoot, '.venv-st'),
  schemathesis: path.join(projectRoot, '.venv-st', 'bin', 'schemathesis'),
  schemathesisRequirements: path.join(projectRoot, 'scripts', 'schemathesis', 'requirements.txt'),
  polarPythonVenv: path.join(projectRoot, '.venv-polar'),
  polarPython: path.join(projectRoot, '.venv-polar', 'bin', 'python'),
  polarPythonRequirements: path.join(projectRoot, 'scripts', 'polar-python', 'requirements.txt'),
};

export function resolveDataDir(dataDir: string): string {
  return path.resolve(projectRoot, dataDir);
}
