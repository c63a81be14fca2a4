// The structure's figures (docs/architecture.md, "Measuring the structure"): how the domain folders
// import each other at run time, where the price type is branched on, which database calls sit
// outside repositories, and which production files are long. `npm run structure` prints them;
// `--json` gives them to a script. Tests, generated code and type-only imports are left out.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { databaseCall, mayQuery, prismaModelDelegates } from './eslint/repository-queries.js';
import { projectRoot } from './lib/paths.js';
import { priceTypeBranches } from './lib/price-branches.js';
import { listSources, readSource } from './lib/sources.js';

const LONG_FILE_LINES = 600;

function projectModels(): Set<string> {
  return prismaModelDelegates(fs.readFileSync(path.join(projectRoot, 'prisma', 'schema.prisma'), 'utf8'));
}

/** Import specifiers that load code at run time (`import type` and all-type specifier lists left out). */
function runtimeImports(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const allTypes =
        clause &&
        !clause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((element) => element.isTypeOnly);
      if (allTypes) continue;
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

function domainFolderOf(relative: string): string | null {
  const match = /^domain\/([^/]+)\//.exec(relative);
  return match ? match[1]! : null;
}

/** Strongly connected components (Tarjan) of the folder graph; only those with more than one folder. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowLinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    lowLinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        lowLinks.set(node, Math.min(lowLinks.get(node)!, lowLinks.get(next)!));
      } else if (onStack.has(next)) {
        lowLinks.set(node, Math.min(lowLinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowLinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) connect(node);
  return components.sort((a, b) => b.length - a.length);
}

/** Database calls (scripts/eslint/repository-queries.js says which), counted as the lint rule sees them. */
function databaseCalls(source: ts.SourceFile, models: Set<string>): number {
  let count = 0;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node)) {
      const callee = ts.isCallExpression(node) ? node.expression : node.tag;
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name)) {
        let target: ts.Expression = callee.expression;
        while (ts.isNonNullExpression(target)) target = target.expression;
        const isProperty = ts.isPropertyAccessExpression(target);
        const name = ts.isPropertyAccessExpression(target)
          ? target.name.text
          : ts.isIdentifier(target)
            ? target.text
            : null;
        if (databaseCall(callee.name.text, { name, isProperty, models })) count += 1;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

export type StructureFigures = {
  domainFolders: number;
  /** Each domain folder's runtime imports of other domain folders. */
  domainImports: Record<string, string[]>;
  largestCycle: string[];
  cycles: string[][];
  mutualPairs: [string, string][];
  priceTypeBranches: { files: number; places: number; byFile: Record<string, number> };
  queriesOutsideRepositories: { files: number; calls: number; byFile: Record<string, number> };
  longFiles: { file: string; lines: number }[];
};

export function measureStructure(): StructureFigures {
  const models = projectModels();
  const graph = new Map<string, Set<string>>();
  const domainFolders = new Set<string>();
  const branchesByFile: Record<string, number> = {};
  const queriesByFile: Record<string, number> = {};
  const longFiles: { file: string; lines: number }[] = [];

  for (const relative of listSources()) {
    const { text, source } = readSource(relative);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > LONG_FILE_LINES) longFiles.push({ file: relative, lines });

    const branches = priceTypeBranches(source);
    if (branches > 0) branchesByFile[relative] = branches;
    if (!relative.startsWith('web/') && !mayQuery(relative)) {
      const calls = databaseCalls(source, models);
      if (calls > 0) queriesByFile[relative] = calls;
    }

    const from = domainFolderOf(relative);
    if (!from) continue;
    domainFolders.add(from);
    for (const specifier of runtimeImports(source)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(relative), specifier));
      const to = domainFolderOf(target);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }

  const mutualPairs: [string, string][] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) if (from < to && graph.get(to)?.has(from)) mutualPairs.push([from, to]);
  }
  const found = cycles(graph);
  const sum = (record: Record<string, number>) => Object.values(record).reduce((total, n) => total + n, 0);
  return {
    domainFolders: domainFolders.size,
    domainImports: Object.fromEntries([...graph].map(([from, targets]) => [from, [...targets].sort()])),
    largestCycle: found[0] ?? [],
    cycles: found,
    mutualPairs: mutualPairs.sort(),
    priceTypeBranches: {
      files: Object.keys(branchesByFile).length,
      places: sum(branchesByFile),
      byFile: branchesByFile,
    },
    queriesOutsideRepositories: {
      files: Object.keys(queriesByFile).length,
      calls: sum(queriesByFile),
      byFile: queriesByFile,
    },
    longFiles: longFiles.sort((a, b) => b.lines - a.lines),
  };
}

function print(figures: StructureFigures): void {
  const list = (record: Record<string, number>) =>
    Object.entries(record)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([file, n]) => `    ${file} ${n}`)
      .join('\n');
  console.log(`domain folders: ${figures.domainFolders}`);
  console.log(
    `largest import cycle between domain folders: ${figures.largestCycle.length} folders` +
      (figures.largestCycle.length ? `\n    ${figures.largestCycle.join(' ')}` : ''),
  );
  if (figures.cycles.length > 1) {
    console.log(
      `other cycles: ${figures.cycles
        .slice(1)
        .map((cycle) => cycle.join(' '))
        .join(' | ')}`,
    );
  }
  console.log(`domain folders importing each other both ways: ${figures.mutualPairs.length} pairs`);
  for (const [a, b] of figures.mutualPairs) console.log(`    ${a} ⇄ ${b}`);
  const branches = figures.priceTypeBranches;
  console.log(`branches on the price type: ${branches.places} places in ${branches.files} files`);
  if (branches.files) console.log(list(branches.byFile));
  const queries = figures.queriesOutsideRepositories;
  console.log(`database calls outside repositories: ${queries.calls} in ${queries.files} files`);
  if (queries.files) console.log(list(queries.byFile));
  console.log(`production files over ${LONG_FILE_LINES} lines: ${figures.longFiles.length}`);
  for (const { file, lines } of figures.longFiles) console.log(`    ${file} ${lines}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const figures = measureStructure();
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures, null, 2));
  else print(figures);
}
