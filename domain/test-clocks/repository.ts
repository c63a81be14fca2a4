// The test clocks' table and the customers attached to them.
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

const testClockInclude = {
  customers: { select: { id: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} as const satisfies Prisma.TestClockInclude;

export type TestClockRow = Prisma.TestClockGetPayload<{ include: typeof testClockInclude }>;

export function findTestClock(db: Client, id: string, organizationIds: string[]) {
  return db.testClock.findFirst({
    where: { id, organizationId: { in: organizationIds } },
    include: testClockInclude,
  });
}

export function listTestClockRows(
  db: Db,
  where: Prisma.TestClockWhereInput,
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.testClock.findMany({
      where,
      include: testClockInclude,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      ...page,
    }),
    db.testClock.count({ where }),
  ]);
}

export function insertTestClock(db: Client, data: Prisma.TestClockUncheckedCreateInput) {
  return db.testClock.create({ data, include: testClockInclude });
}

/** Serializes advances and attachments of one clock. */
export async function lockTestClock(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM test_clocks WHERE id = ${id}::uuid FOR UPDATE`;
}

export function updateTestClockRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.TestClockUpdateInput,
) {
  return tx.testClock.update({
    where: { id },
    data: { ...data, modifiedAt: new Date() },
    include: testClockInclude,
  });
}

export function deleteTestClockRow(tx: Prisma.TransactionClient, id: string) {
  return tx.testClock.delete({ where: { id } });
}

export function attachCustomerToClock(tx: Prisma.TransactionClient, customerId: string, testClockId: string) {
  return tx.customer.update({ where: { id: customerId }, data: { testClockId } });
}

export function detachCustomersFromClock(tx: Prisma.TransactionClient, testClockId: string) {
  return tx.customer.updateMany({ where: { testClockId }, data: { testClockId: null } });
}

export async function hasSubscriptions(db: Client, customerId: string): Promise<boolean> {
  return (await db.subscription.findFirst({ where: { customerId }, select: { id: true } })) !== null;
}

/** A subscription of the clock's customers has not ended. */
export async function hasRunningSubscriptions(db: Client, testClockId: string): Promise<boolean> {
  const row = await db.subscription.findFirst({
    where: { customer: { testClockId }, endedAt: null },
    select: { id: true },
  });
  return row !== null;
}
