import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { mayQuery, repositoryQueriesRule } from './repository-queries.js';

RuleTester.describe = describe;
RuleTester.it = it;

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const service = 'domain/orders/service.ts';
const outside = (code: string, call: string, filename = service) => ({
  code,
  filename,
  errors: [{ messageId: 'outside', data: { call } }],
});

ruleTester.run('queries-in-repositories', repositoryQueriesRule, {
  valid: [
    // Repositories and the floor make the statements.
    { code: 'db.order.findMany({ where: { id } });', filename: 'domain/orders/repository.ts' },
    { code: 'await sql.query(`SELECT 1`);', filename: 'domain/orders/repository-exports.ts' },
    { code: 'await prisma.$queryRaw`SELECT 1`;', filename: 'infra/db.ts' },
    { code: 'db.emailMessage.create({ data });', filename: 'integrations/sandbox/repository.ts' },
    // A service opens the transaction and hands its client to repositories.
    { code: 'await transaction(db, ({ sql }) => findOrderWithItems(sql, id));', filename: service },
    { code: 'await db.$transaction((tx) => lockOrder(tx, id));', filename: service },
    // Not a database: other objects' methods of the same names.
    { code: 'const found = orders.findFirst((order) => order.paid);', filename: service },
    { code: 'const map = new Map(); map.delete(key); items.count();', filename: service },
    { code: 'router.query(params); const search = url.query;', filename: service },
    { code: "db['order'].findMany();", filename: service },
  ],
  invalid: [
    outside('await db.order.findMany({ where: { id } });', 'order.findMany'),
    outside('await tx.benefitGrant.count({ where });', 'benefitGrant.count'),
    outside(
      'await ctx.db.customerPaymentMethod.findUnique({ where: { id } });',
      'customerPaymentMethod.findUnique',
    ),
    outside('await prisma.customer.findUniqueOrThrow({ where: { id } });', 'customer.findUniqueOrThrow'),
    outside('await db.order!.groupBy({ by: ["status"] });', 'order.groupBy'),
    outside('await db.emailMessage.upsert({ where, create, update });', 'emailMessage.upsert'),
    outside('await db.$queryRaw`SELECT now()`;', '$queryRaw'),
    outside('await tx.$executeRawUnsafe("DELETE FROM orders");', '$executeRawUnsafe'),
    outside('await sql.query("SELECT 1");', 'sql.query'),
    outside('await ctx.db.sql.query("SELECT 1", []);', 'sql.query'),
    // Outside domain/: integrations, activities and the rest are held to it too.
    outside('await db.emailMessage.create({ data });', 'emailMessage.create', 'integrations/smtp/mailer.ts'),
    outside('await db.$queryRaw`SELECT 1`;', '$queryRaw', 'activities/system.ts'),
    // A file merely named like a repository is not one.
    outside('await db.order.delete({ where });', 'order.delete', 'domain/orders/repository-helpers.js'),
    outside('await db.order.delete({ where });', 'order.delete', 'domain/orders/order-repository.ts'),
  ],
});

describe('where queries may live', () => {
  it('is a repository, one split by subject, or infra/', () => {
    expect(mayQuery('domain/orders/repository.ts')).toBe(true);
    expect(mayQuery('domain/orders/repository-exports.ts')).toBe(true);
    expect(mayQuery('integrations/sandbox/repository.ts')).toBe(true);
    expect(mayQuery('infra/sql.ts')).toBe(true);
    expect(mayQuery('domain/orders/service.ts')).toBe(false);
    expect(mayQuery('domain/orders/repository.test.ts')).toBe(false);
    expect(mayQuery('domain/infra/service.ts')).toBe(false);
  });
});

// The project's own configuration: `npm run lint` (and so `npm run test:static`) fails on a query
// outside a repository in every production folder, and lets tests, tools and repositories query.
describe('the project configuration', () => {
  const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '..', '..') });
  const violations = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((message) => message.ruleId === 'repositories/queries-in-repositories')
      .map((message) => message.message);
  };
  const query = [
    "import type { Db } from '../../infra/db.js';",
    'export const countOrders = (db: Db) => db.order.count();',
  ].join('\n');

  it('refuses a query in a service, an integration, an activity, a route or a starter', async () => {
    for (const filePath of [
      'domain/orders/lint-probe.ts',
      'integrations/smtp/lint-probe.ts',
      'activities/lint-probe.ts',
      'api/v1/lint-probe.ts',
      'temporal/lint-probe.ts',
    ]) {
      expect(await violations(filePath, query)).toEqual([
        "'order.count' queries the database outside a repository: move it into the repository of the domain that owns the table.",
      ]);
    }
  });

  it('lets repositories, infra/, tests and tools query', async () => {
    for (const filePath of [
      'domain/orders/repository.ts',
      'domain/orders/repository-exports.ts',
      'infra/lint-probe.ts',
      'domain/orders/lint-probe.int.test.ts',
      'scripts/lint-probe.ts',
      'test/lint-probe.ts',
    ]) {
      expect(await violations(filePath, query)).toEqual([]);
    }
  });
});
