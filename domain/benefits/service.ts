import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationForWrite, organizationsToList } from '../access/service.js';
import { findFilesOfOrganization } from '../files/repository.js';
import { findMetersOfOrganization } from '../meters/repository.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findLiveBenefit,
  insertBenefit,
  listLiveBenefits,
  updateBenefitRow,
  type BenefitRow,
  markBenefitHoldersStale,
  requestGrantUpdates,
} from './repository.js';
import { storedProperties } from './rules.js';
import type { Benefit, BenefitCreate, BenefitListQuery, BenefitType, BenefitUpdate } from './schemas.js';
import { benefitView } from './views.js';

/** What a benefit points at must be the organization's own: the credited meter, uploaded downloadables. */
async function assertReferences(
  db: Db,
  organizationId: string,
  type: BenefitType,
  properties: Record<string, unknown>,
): Promise<void> {
  if (type === 'meter_credit') {
    const meterId = properties.meter_id as string;
    if ((await findMetersOfOrganization(db, organizationId, [meterId])).length === 0) {
      throw new InvalidFieldError(['body', 'properties', 'meter_id'], 'Meter not found.');
    }
  }
  if (type === 'downloadables') {
    const ids = properties.files as string[];
    const files = await findFilesOfOrganization(db, organizationId, ids);
    const usable = new Set(
      files.filter((file) => file.service === 'downloadable' && file.isUploaded).map((file) => file.id),
    );
    const index = ids.findIndex((id) => !usable.has(id));
    if (index >= 0) {
      throw new InvalidFieldError(
        ['body', 'properties', 'files', index],
        'File not found, not uploaded yet, or not a downloadable.',
      );
    }
  }
}

async function recordBenefitEvent(
  tx: Prisma.TransactionClient,
  row: BenefitRow,
  kind: 'created' | 'updated',
) {
  const benefit = benefitView(row);
  await recordEvent(tx, {
    organizationId: row.organizationId,
    type: `benefit.${kind}`,
    data: benefit,
    at: row.modifiedAt ?? row.createdAt,
  });
  return benefit;
}

export async function createBenefit(db: Db, caller: Caller, input: BenefitCreate): Promise<Benefit> {
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  const properties = storedProperties(input.type, input.properties);
  await assertReferences(db, organizationId, input.type, properties);
  return db.$transaction(async (tx) => {
    const row = await insertBenefit(tx, {
      organizationId,
      type: input.type,
      description: input.description,
      properties: properties as Prisma.InputJsonValue,
      metadata: input.metadata ?? {},
    });
    return recordBenefitEvent(tx, row, 'created');
  });
}

const SORT_COLUMNS = { created_at: 'createdAt', description: 'description' } as const;

export async function listBenefits(db: Db, caller: Caller, query: BenefitListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.BenefitWhereInput = { organizationId: { in: organizationIds } };
  if (query.type) where.type = { in: query.type };
  if (query.query) where.description = { contains: query.query, mode: 'insensitive' };
  if (query.customer_id) where.grants = { some: { customerId: { in: query.customer_id } } };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await listLiveBenefits(db, where, orderBy, pageToSkipTake(query));
  return paginated(rows.map(benefitView), total, query);
}

export async function findBenefitFor(db: Db, caller: Caller, id: string): Promise<BenefitRow> {
  const row = await findLiveBenefit(db, id);
  const visible = row && (await organizationsToList(db, caller, undefined)).includes(row.organizationId);
  if (!row || !visible) throw new AppError('ResourceNotFound', 'Benefit not found');
  return row;
}

export async function updateBenefit(
  db: Db,
  caller: Caller,
  id: string,
  input: BenefitUpdate,
): Promise<Benefit> {
  const current = await findBenefitFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  if (input.type !== current.type) {
    throw new InvalidFieldError(
      ['body', 'type'],
      `This benefit is of type ${current.type}; its type cannot change.`,
    );
  }
  const data: Prisma.BenefitUpdateInput = {};
  if (input.description) data.description = input.description;
  if (input.metadata !== undefined) data.metadata = input.metadata;
  if (input.properties) {
    const properties = storedProperties(current.type as BenefitType, input.properties);
    await assertReferences(db, current.organizationId, current.type as BenefitType, properties);
    data.properties = properties as Prisma.InputJsonValue;
  }
  return db.$transaction(async (tx) => {
    const benefit = await recordBenefitEvent(tx, await updateBenefitRow(tx, id, data), 'updated');
    // Buyers' keys, files and credits follow the new properties (never reviving a revoked key).
    if (data.properties) await requestGrantUpdates(tx, id);
    return benefit;
  });
}

/** Deleting hides the benefit and takes it back from everyone who holds it; grants keep their history. */
export async function deleteBenefit(db: Db, caller: Caller, id: string): Promise<void> {
  const current = await findBenefitFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  if (!current.deletable) throw new AppError('NotPermitted', 'This benefit cannot be deleted.');
  await db.$transaction(async (tx) => {
    const row = await updateBenefitRow(tx, id, { deletedAt: new Date() });
    await recordBenefitEvent(tx, row, 'updated');
    // A deleted benefit is taken back from everyone who holds it.
    await markBenefitHoldersStale(tx, id);
  });
}
