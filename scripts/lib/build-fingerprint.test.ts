import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  describeStaleness,
  hashInputs,
  readBuildRecord,
  writeBuildRecord,
  type BuildSpec,
} from './build-fingerprint.js';

// A project in a temporary folder, shaped like Tollgate's: sources in, dist/ out, the record in dist/.
let root: string;
let spec: BuildSpec;
const recordFile = () => path.join(root, 'dist', '.build-record.json');

function writeProjectFile(relative: string, content: string) {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

function createSpec(overrides: Partial<BuildSpec> = {}): BuildSpec {
  return {
    root,
    inputs: ['src', 'web', 'package-lock.json'],
    outputs: ['dist'],
    isIgnored: (file) =>
      file === 'src/generated.ts' || file.endsWith('.test.ts') || file === 'dist/.build-record.json',
    salt: 'Node.js v20.0.0',
    ...overrides,
  };
}

/** A finished build: outputs written, then the record of the inputs as they were before it. */
function recordBuild() {
  const inputs = hashInputs(spec);
  writeProjectFile('dist/src/server.js', 'export const port = 3000;\n');
  writeProjectFile('dist/web/index.html', '<script src="main.js"></script>\n');
  writeBuildRecord(spec, recordFile(), inputs);
}

/** Why a start would build now; undefined means it would skip the build. */
const stalenessNow = () => describeStaleness(spec, readBuildRecord(recordFile()), hashInputs(spec));

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'tollgate-build-fingerprint-'));
  writeProjectFile('src/server.ts', 'export const port = 3000;\n');
  writeProjectFile('src/generated.ts', 'export const generatedAt = 1;\n');
  writeProjectFile('src/server.test.ts', "it('listens', () => undefined);\n");
  writeProjectFile('web/main.tsx', 'export const App = () => null;\n');
  writeProjectFile('package-lock.json', '{"lockfileVersion":3}\n');
  spec = createSpec();
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('describeStaleness', () => {
  it('skips the build when nothing changed since it finished', () => {
    recordBuild();
    expect(stalenessNow()).toBeUndefined();
  });

  it('skips the build when a file is rewritten with the same content (a checkout, touch)', () => {
    recordBuild();
    writeProjectFile('src/server.ts', 'export const port = 3000;\n');
    utimesSync(path.join(root, 'src/server.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(stalenessNow()).toBeUndefined();
  });

  it('builds when there is no record (first build, rm -rf dist, a build that failed)', () => {
    expect(stalenessNow()).toBe('no record of a finished build');
    writeProjectFile('dist/.build-record.json', '{"salt":');
    expect(stalenessNow()).toBe('no record of a finished build');
  });

  it('builds when an input file changed', () => {
    recordBuild();
    writeProjectFile('web/main.tsx', 'export const App = () => "changed";\n');
    expect(stalenessNow()).toBe('web/main.tsx changed');
  });

  it('builds when a lone input file changed (package-lock.json)', () => {
    recordBuild();
    writeProjectFile('package-lock.json', '{"lockfileVersion":3,"packages":{}}\n');
    expect(stalenessNow()).toBe('package-lock.json changed');
  });

  it('builds when an input file is new, in a new folder too', () => {
    recordBuild();
    writeProjectFile('src/routes/orders.ts', 'export const orders = [];\n');
    expect(stalenessNow()).toBe('src/routes/orders.ts is new');
  });

  it('builds when an input file was deleted', () => {
    recordBuild();
    rmSync(path.join(root, 'web/main.tsx'));
    expect(stalenessNow()).toBe('web/main.tsx is gone');
  });

  it('builds when an output is missing', () => {
    recordBuild();
    rmSync(path.join(root, 'dist/src/server.js'));
    expect(stalenessNow()).toBe('dist/src/server.js is gone');
    rmSync(path.join(root, 'dist'), { recursive: true });
    expect(stalenessNow()).toBe('no record of a finished build');
  });

  it('builds when an output was changed since the build', () => {
    recordBuild();
    writeProjectFile('dist/web/index.html', '<script src="other.js"></script>\n');
    expect(stalenessNow()).toBe('dist/web/index.html changed');
  });

  it('builds when the salt (Node.js version) differs', () => {
    recordBuild();
    spec = createSpec({ salt: 'Node.js v22.0.0' });
    expect(stalenessNow()).toBe('built with Node.js v20.0.0, now Node.js v22.0.0');
  });

  it('builds again when an input was edited while the build ran', () => {
    const inputsBefore = hashInputs(spec);
    writeProjectFile('src/server.ts', 'export const port = 3001;\n');
    writeBuildRecord(spec, recordFile(), inputsBefore);
    expect(stalenessNow()).toBe('src/server.ts changed');
  });

  it('ignores the files the spec leaves out: tests, derived files', () => {
    recordBuild();
    writeProjectFile('src/server.test.ts', "it('listens on 3001', () => undefined);\n");
    writeProjectFile('src/generated.ts', 'export const generatedAt = 2;\n');
    expect(stalenessNow()).toBeUndefined();
  });
});
