// The production sources the structure's figures and checks read (`npm run structure`,
// domain/prices/registry.test.ts): tests, generated code and declarations left out.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from './paths.js';

const SOURCE_FOLDERS = [
  'api',
  'activities',
  'domain',
  'infra',
  'integrations',
  'temporal',
  'workflows',
  'web',
  'config',
];

function isProductionSource(relative: string): boolean {
  return (
    /\.(ts|tsx)$/.test(relative) &&
    !/\.test\.tsx?$/.test(relative) &&
    !relative.endsWith('.d.ts') &&
    !relative.endsWith('routeTree.gen.ts') &&
    !relative.includes('/test/') &&
    !relative.startsWith('test/')
  );
}

/** Paths relative to the project root, with `/`, sorted. */
export function listSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(projectRoot, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (isProductionSource(relative)) files.push(relative);
    }
  };
  for (const folder of SOURCE_FOLDERS) if (fs.existsSync(path.join(projectRoot, folder))) walk(folder);
  return files.sort();
}

export function readSource(relative: string): { text: string; source: ts.SourceFile } {
  const text = fs.readFileSync(path.join(projectRoot, relative), 'utf8');
  return { text, source: parseSource(relative, text) };
}

export function parseSource(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}
