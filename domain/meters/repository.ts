import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

export function findMeter(db: Client, id: string, organizationIds: string[]) {
  return db.meter.findFirst({ where: { id, organizationId: { in: organizationIds } } });
}

export function listMeters(
  db: Db,
  where: Prisma.MeterWhereInput & { organizationId: { in: string[] } },
  orderBy: Prisma.MeterOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([db.meter.findMany({ where, orderBy, ...page }), db.meter.count({ where })]);
}

export function insertMeter(db: Client, data: Prisma.MeterUncheckedCreateInput) {
  return db.meter.create({ data });
}

export function updateMeter(db: Client, id: string, organizationId: string, data: Prisma.MeterUpdateInput) {
  return db.meter.update({ where: { id, organizationId }, data });
}

/** Meters of one organization among `ids`, for prices that name them. */
export function findMetersOfOrganization(db: Client, organizationId: string, ids: string[]) {
  return db.meter.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, name: true } });
}

export type MeterRow = NonNullable<Awaited<ReturnType<typeof findMeter>>>;
