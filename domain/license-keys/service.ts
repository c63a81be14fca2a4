import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import {
  findActivation,
  findLicenseKey,
  listLicenseKeyRows,
  updateLicenseKeyRow,
  type LicenseKeyRow,
} from './repository.js';
import type {
  LicenseKeyActivation,
  LicenseKeyListQuery,
  LicenseKeyUpdate,
  LicenseKeyWithActivations,
} from './schemas.js';
import { licenseKeyActivationView, licenseKeyView } from './views.js';

export async function listLicenseKeys(db: Db, caller: Caller, query: LicenseKeyListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.LicenseKeyWhereInput = { organizationId: { in: organizationIds } };
  if (query.benefit_id) where.benefitId = { in: [query.benefit_id].flat() };
  const [rows, total] = await listLicenseKeyRows(db, where, pageToSkipTake(query));
  return paginated(rows.map(licenseKeyView), total, query);
}

async function findLicenseKeyFor(db: Db, caller: Caller, id: string): Promise<LicenseKeyRow> {
  const row = await findLicenseKey(db, id);
  if (!row || !(await accessibleOrganizationIds(db, caller)).includes(row.organizationId)) {
    throw new AppError('ResourceNotFound', 'License key not found');
  }
  return row;
}

const withActivations = (row: LicenseKeyRow): LicenseKeyWithActivations => ({
  ...licenseKeyView(row),
  activations: row.activations.map(licenseKeyActivationView),
});

export async function getLicenseKey(db: Db, caller: Caller, id: string): Promise<LicenseKeyWithActivations> {
  return withActivations(await findLicenseKeyFor(db, caller, id));
}

export async function updateLicenseKey(
  db: Db,
  caller: Caller,
  id: string,
  input: LicenseKeyUpdate,
): Promise<LicenseKeyWithActivations> {
  const current = await findLicenseKeyFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  const data: Prisma.LicenseKeyUncheckedUpdateInput = {};
  if (input.status) data.status = input.status;
  if (input.usage !== undefined) data.usage = input.usage;
  if (input.limit_activations !== undefined) data.limitActivations = input.limit_activations;
  if (input.limit_usage !== undefined) data.limitUsage = input.limit_usage;
  if (input.expires_at !== undefined) data.expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  return withActivations(await updateLicenseKeyRow(db, id, data));
}

export async function getLicenseKeyActivation(
  db: Db,
  caller: Caller,
  id: string,
  activationId: string,
): Promise<LicenseKeyActivation> {
  const key = await findLicenseKeyFor(db, caller, id);
  const activation = await findActivation(db, key.id, activationId);
  if (!activation) throw new AppError('ResourceNotFound', 'License key activation not found');
  return { ...licenseKeyActivationView(activation), license_key: licenseKeyView(key) };
}
