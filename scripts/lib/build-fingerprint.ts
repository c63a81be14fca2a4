import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * What a build reads and writes, so that `npm start` can tell whether the last build is still
 * current: nothing it read has changed since, and everything it wrote is still as it left it.
 */
export type BuildSpec = {
  root: string;
  /** Files and folders (relative to `root`) whose content decides the output. */
  inputs: string[];
  /** Files and folders (relative to `root`) the build writes. */
  outputs: string[];
  /** Relative paths ('/'-separated) left out of both: derived files, tests, state of the tools. */
  isIgnored: (relativePath: string) => boolean;
  /** What else the output depends on (the Node.js version, say); a different value rebuilds. */
  salt: string;
};

/** Written beside the output after a successful build. */
export type BuildRecord = {
  salt: string;
  /** Input path → SHA-256 of its content (content, not mtime: a checkout or `touch` is no change). */
  inputs: Record<string, string>;
  /** Output path → size and mtime when the build finished (cheap; only the build writes them). */
  outputs: Record<string, string>;
};

function statOrUndefined(file: string): Stats | undefined {
  return statSync(file, { throwIfNoEntry: false });
}

/** Every file under `entries` (files or folders, missing ones skipped), as sorted relative paths. */
export function listFiles(root: string, entries: string[], isIgnored: (relativePath: string) => boolean) {
  const files: string[] = [];
  const visit = (relative: string) => {
    if (isIgnored(relative)) return;
    // stat follows symbolic links, so a linked folder is read like any other.
    const stats = statOrUndefined(path.join(root, relative));
    if (stats?.isFile()) files.push(relative);
    else if (stats?.isDirectory()) {
      for (const name of readdirSync(path.join(root, relative))) visit(`${relative}/${name}`);
    }
  };
  for (const entry of entries) visit(entry.split(path.sep).join('/').replace(/\/+$/, ''));
  return [...new Set(files)].sort();
}

export function hashInputs(spec: BuildSpec): Record<string, string> {
  return Object.fromEntries(
    listFiles(spec.root, spec.inputs, spec.isIgnored).map((file) => [
      file,
      createHash('sha256')
        .update(readFileSync(path.join(spec.root, file)))
        .digest('hex'),
    ]),
  );
}

export function statOutputs(spec: BuildSpec): Record<string, string> {
  return Object.fromEntries(
    listFiles(spec.root, spec.outputs, spec.isIgnored).flatMap((file) => {
      const stats = statOrUndefined(path.join(spec.root, file));
      return stats ? [[file, `${stats.size}:${stats.mtimeMs}`]] : [];
    }),
  );
}

/** The first difference between two path → value maps, in words; undefined when they are equal. */
function describeDifference(recorded: Record<string, string>, current: Record<string, string>) {
  for (const [file, value] of Object.entries(current)) {
    if (!Object.hasOwn(recorded, file)) return `${file} is new`;
    if (recorded[file] !== value) return `${file} changed`;
  }
  for (const file of Object.keys(recorded)) {
    if (!Object.hasOwn(current, file)) return `${file} is gone`;
  }
  return undefined;
}

/** Why the build's outputs are no longer what it left (missing, changed or added), or undefined. */
export function describeOutputChange(spec: BuildSpec, record: BuildRecord): string | undefined {
  return describeDifference(record.outputs, statOutputs(spec));
}

/**
 * Why the build must run again, or undefined when its last output is current. `inputs` are the
 * inputs as they are now (`hashInputs`), so that a build that follows can record the very same.
 */
export function describeStaleness(
  spec: BuildSpec,
  record: BuildRecord | undefined,
  inputs: Record<string, string>,
): string | undefined {
  if (!record) return 'no record of a finished build';
  if (record.salt !== spec.salt) return `built with ${record.salt}, now ${spec.salt}`;
  return describeDifference(record.inputs, inputs) ?? describeOutputChange(spec, record);
}

export function readBuildRecord(file: string): BuildRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildRecord>;
    if (typeof record.salt !== 'string' || !record.inputs || !record.outputs) return undefined;
    return { salt: record.salt, inputs: record.inputs, outputs: record.outputs };
  } catch {
    return undefined;
  }
}

/**
 * Call once the build has succeeded, with the inputs hashed before it started: a file edited while
 * it ran then differs from the record, and the next start builds again.
 */
export function writeBuildRecord(spec: BuildSpec, file: string, inputs: Record<string, string>) {
  const record: BuildRecord = { salt: spec.salt, inputs, outputs: statOutputs(spec) };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record)}\n`);
}
