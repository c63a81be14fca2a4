import type { Db, SqlClient } from '../../infra/db.js';
import { selectList } from '../../infra/sql.js';
import { Prisma, type Meter } from '../../generated/prisma/client.js';
import type { MeterCache } from './cache.js';

type Client = Db | Prisma.TransactionClient;

const METER_COLUMNS = selectList(Prisma.MeterScalarFieldEnum, 'm');

/**
 * Plain SQL, and through `cache` when given: read by every quantities request, which a seller's
 * dashboard polls.
 */
export async function findMeter(
  sql: SqlClient,
  id: string,
  organizationIds: string[],
  cache?: MeterCache,
): Promise<Meter | null> {
  const read = async () => {
    const { rows } = await sql.query<Meter>(`SELECT ${METER_COLUMNS} FROM meters m WHERE m.id = $1::uuid`, [
      id,
    ]);
    return rows[0] ?? null;
  };
  const meter = cache ? await cache.lookup(id, read) : await read();
  return meter && organizationIds.includes(meter.organizationId) ? meter : null;
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

export type MeterRow = Meter;
