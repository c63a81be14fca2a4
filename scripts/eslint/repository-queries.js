// Queries live in repositories (docs/architecture.md, "One domain"): a table belongs to exactly one
// repository, so no other production file talks to the database. This module is the one definition
// of a database call and of where one may be made: the lint rule enforces it, and
// `npm run structure` (scripts/structure.ts) counts the calls outside repositories with it.
//
// A transaction (`transaction(db, …)`, `db.$transaction`) is not a call: a service opens one around
// its unit of work and hands the client to repositories, which make the statements.

import fs from 'node:fs';
import path from 'node:path';

/** Operations of a Prisma model delegate (`db.order.findMany(…)`). */
export const PRISMA_OPERATIONS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
]);

/** Prisma's raw statements, on any client. */
export const RAW_OPERATIONS = new Set(['$queryRaw', '$executeRaw', '$queryRawUnsafe', '$executeRawUnsafe']);

/** The node-postgres client is always called `sql` (`db.sql`, a transaction's `{ sql }`). */
export const SQL_CLIENT = 'sql';

/** Prisma's delegate names for the models of a schema (`model OrderItem` → `orderItem`). */
export function prismaModelDelegates(schema) {
  const names = [...schema.matchAll(/^model (\w+)/gm)].map((match) => match[1]);
  return new Set(names.map((name) => name[0].toLowerCase() + name.slice(1)));
}

/**
 * Where database calls belong, by path from the project root: a domain's `repository.ts` (a large
 * one split by subject as `repository-<subject>.ts` beside it) and `infra/`, the floor that
 * implements the client.
 */
export function mayQuery(relativePath) {
  const file = relativePath.split(path.sep).join('/');
  return /(^|\/)repository(-[a-z0-9-]+)?\.ts$/.test(file) || /^infra\//.test(file);
}

/**
 * What database call `<target>.<operation>(…)` is, or null: `target` is the name the operation is
 * called on (the last property of a member expression, or an identifier) and whether it is itself
 * a property (a model delegate is always one: `db.order`, `tx.order`). Shared by the rule (ESTree)
 * and the structure's figures (the TypeScript API), so both count the same calls.
 */
export function databaseCall(operation, target) {
  if (RAW_OPERATIONS.has(operation)) return operation;
  if (PRISMA_OPERATIONS.has(operation) && target.isProperty && target.models.has(target.name)) {
    return `${target.name}.${operation}`;
  }
  if (operation === 'query' && target.name === SQL_CLIENT) return `${SQL_CLIENT}.query`;
  return null;
}

/** An ESTree callee (`x.order.findMany`, `x.$queryRaw`, `sql.query`; `db.order!.findMany` too). */
function databaseCallOfCallee(callee, models) {
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') {
    return null;
  }
  let target = callee.object;
  while (target.type === 'TSNonNullExpression') target = target.expression;
  const isProperty =
    target.type === 'MemberExpression' && !target.computed && target.property.type === 'Identifier';
  const name = isProperty ? target.property.name : target.type === 'Identifier' ? target.name : null;
  return databaseCall(callee.property.name, { name, isProperty, models });
}

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
let schemaModels;
function projectModels() {
  schemaModels ??= prismaModelDelegates(
    fs.readFileSync(path.join(projectRoot, 'prisma', 'schema.prisma'), 'utf8'),
  );
  return schemaModels;
}

/** @type {import('eslint').Rule.RuleModule} */
export const repositoryQueriesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Database calls only in repositories (and infra/)' },
    messages: {
      outside:
        "'{{call}}' queries the database outside a repository: move it into the repository of the domain that owns the table.",
    },
    schema: [],
  },
  create(context) {
    const relative = path.isAbsolute(context.filename)
      ? path.relative(context.cwd, context.filename)
      : context.filename;
    if (mayQuery(relative)) return {};
    const models = projectModels();
    const check = (node, callee) => {
      const call = databaseCallOfCallee(callee, models);
      if (call) context.report({ node, messageId: 'outside', data: { call } });
    };
    return {
      CallExpression(node) {
        check(node, node.callee);
      },
      TaggedTemplateExpression(node) {
        check(node, node.tag);
      },
    };
  },
};
