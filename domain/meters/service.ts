import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationForWrite,
  organizationsToList,
} from '../access/service.js';
import { metadataWhere, type MetadataQuery } from '../metadata/rules.js';
import { AppError, InvalidInputError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import type { MeterCache } from './cache.js';
import { findMeter, insertMeter, listMeters as queryMeters, updateMeter as saveMeter } from './repository.js';
import { filterIssues } from './rules.js';
import type { Filter, Meter, MeterCreate, MeterUpdate } from './schemas.js';
import { meterView } from './views.js';
import { markOrganizationCustomerMetersStale } from '../customers/repository.js';

function assertValidFilter(filter: Filter) {
  const issues = filterIssues(filter);
  if (issues.length > 0) {
    throw new InvalidInputError(
      issues.map((issue) => ({
        loc: ['body', 'filter', ...issue.path],
        msg: issue.message,
        type: 'value_error',
      })),
    );
  }
}

const SORT_COLUMNS = { created_at: 'createdAt', name: 'name' } as const;

export async function listMeters(
  db: Db,
  caller: Caller,
  query: PageQuery & {
    organization_id?: string | string[];
    query?: string;
    sorting?: string[];
    metadata: MetadataQuery;
  },
) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.MeterWhereInput & { organizationId: { in: string[] } } = {
    organizationId: { in: organizationIds },
    ...(query.query ? { name: { contains: query.query, mode: 'insensitive' } } : {}),
    AND: metadataWhere(query.metadata),
  };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['name']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await queryMeters(db, where, [...orderBy, { id: 'asc' }], pageToSkipTake(query));
  return paginated(rows.map(meterView), total, query);
}

export async function getMeter(db: Db, caller: Caller, id: string): Promise<Meter> {
  const row = await findMeter(db.sql, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Meter not found');
  return meterView(row);
}

export async function createMeter(db: Db, caller: Caller, input: MeterCreate): Promise<Meter> {
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  assertValidFilter(input.filter);
  const row = await db.$transaction(async (tx) => {
    const created = await insertMeter(tx, {
      organizationId,
      name: input.name,
      filter: input.filter,
      aggregation: input.aggregation,
      metadata: input.metadata ?? {},
    });
    // Usage already sent counts for a new meter too.
    await markOrganizationCustomerMetersStale(tx, organizationId);
    return created;
  });
  return meterView(row);
}

/** `cache`: this process's meters, so that its own next quantities request reads the change. */
export async function updateMeter(
  db: Db,
  caller: Caller,
  id: string,
  input: MeterUpdate,
  cache?: MeterCache,
): Promise<Meter> {
  const existing = await findMeter(db.sql, id, await accessibleOrganizationIds(db, caller));
  if (!existing) throw new AppError('ResourceNotFound', 'Meter not found');
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  if (input.filter) assertValidFilter(input.filter);
  const row = await db.$transaction(async (tx) => {
    const saved = await saveMeter(tx, id, existing.organizationId, {
      ...(input.name ? { name: input.name } : {}),
      ...(input.filter ? { filter: input.filter } : {}),
      ...(input.aggregation ? { aggregation: input.aggregation } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      modifiedAt: new Date(),
    });
    if (input.filter || input.aggregation) {
      await markOrganizationCustomerMetersStale(tx, existing.organizationId);
    }
    return saved;
  });
  cache?.forget(id);
  return meterView(row);
}
