import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import {
  deactivateActivation,
  findActivation,
  findKeyPurchase,
  findLicenseKey,
  findLicenseKeyByKey,
  insertActivationWithinLimit,
  listLicenseKeyRows,
  recordLicenseKeyValidation,
  updateLicenseKeyRow,
  type LicenseKeyActivationRow,
  type LicenseKeyRow,
} from './repository.js';
import type {
  LicenseKey,
  LicenseKeyActivation,
  LicenseKeyListQuery,
  LicenseKeyUpdate,
  LicenseKeyWithActivations,
} from './schemas.js';
import { grantedLicenseKeyView, licenseKeyActivationView, licenseKeyView } from './views.js';

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
  return {
    ...licenseKeyActivationView(activation),
    license_key: grantedLicenseKeyView(key, await findKeyPurchase(db, key.grant)),
  };
}

// The seller's app checks keys with these, without credentials (the key is the secret).

export type LicenseKeyCheck = {
  key: string;
  organization_id: string;
  activation_id?: string | null;
  benefit_id?: string | null;
  customer_id?: string | null;
  increment_usage?: number | null;
  conditions?: Record<string, unknown>;
};

/**
 * The key, if it exists and may be used now: granted (not revoked or disabled) and not expired,
 * checked on every call (Polar let revoked or expired keys activate: #6348, #7042).
 */
async function usableKey(db: Db, organizationId: string, key: string, now: Date): Promise<LicenseKeyRow> {
  const row = await findLicenseKeyByKey(db, organizationId, key);
  if (!row) throw new AppError('ResourceNotFound', 'License key not found.');
  if (row.status !== 'granted') throw new AppError('ResourceNotFound', 'This license key is not active.');
  if (row.expiresAt && row.expiresAt <= now)
    throw new AppError('ResourceNotFound', 'This license key has expired.');
  return row;
}

const sameConditions = (expected: unknown, given: unknown) =>
  JSON.stringify(sortKeys(expected ?? {})) === JSON.stringify(sortKeys(given ?? {}));

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, entry]) => [key, sortKeys(entry)]),
  );
}

export async function validateLicenseKey(
  db: Db,
  input: LicenseKeyCheck,
  now = new Date(),
): Promise<ValidatedLicenseKeyWire> {
  const row = await usableKey(db, input.organization_id, input.key, now);
  if (input.benefit_id && input.benefit_id !== row.benefitId)
    throw new AppError('ResourceNotFound', 'License key not found.');
  if (input.customer_id && input.customer_id !== row.customerId)
    throw new AppError('ResourceNotFound', 'License key not found.');
  let activation: LicenseKeyActivationRow | null = null;
  if (input.activation_id) {
    activation = await findActivation(db, row.id, input.activation_id);
    if (!activation)
      throw new AppError('ResourceNotFound', 'This activation does not exist or was deactivated.');
    if (!sameConditions(activation.conditions, input.conditions)) {
      throw new AppError(
        'ResourceNotFound',
        'The license key does not match the conditions of its activation.',
      );
    }
  }
  const increment = input.increment_usage ?? 0;
  if (!(await recordLicenseKeyValidation(db.sql, row.id, increment, now))) {
    const left = Math.max(0, (row.limitUsage ?? 0) - row.usage);
    throw new AppError('BadRequest', `This license key only has ${left} more usages.`);
  }
  const updated = (await findLicenseKey(db, row.id))!;
  return {
    ...grantedLicenseKeyView(updated, await findKeyPurchase(db, updated.grant)),
    activation: activation ? licenseKeyActivationView(activation) : null,
  };
}

export async function activateLicenseKey(
  db: Db,
  input: {
    key: string;
    organization_id: string;
    label: string;
    conditions?: Record<string, unknown>;
    meta?: Record<string, unknown>;
  },
  now = new Date(),
): Promise<LicenseKeyActivation> {
  const row = await usableKey(db, input.organization_id, input.key, now);
  if (row.limitActivations === null) {
    throw new AppError(
      'NotPermitted',
      'This license key cannot be activated: its benefit has no activations.',
    );
  }
  const activation = await db.$transaction((tx) =>
    insertActivationWithinLimit(tx, row.id, row.limitActivations!, {
      label: input.label,
      conditions: (input.conditions ?? {}) as Prisma.InputJsonValue,
      meta: (input.meta ?? {}) as Prisma.InputJsonValue,
    }),
  );
  if (!activation) {
    throw new AppError(
      'NotPermitted',
      `This license key is already activated on ${row.limitActivations} devices, its limit: deactivate one first.`,
    );
  }
  return {
    ...licenseKeyActivationView(activation),
    license_key: grantedLicenseKeyView(row, await findKeyPurchase(db, row.grant)),
  };
}

export async function deactivateLicenseKey(
  db: Db,
  input: { key: string; organization_id: string; activation_id: string },
): Promise<void> {
  const row = await findLicenseKeyByKey(db, input.organization_id, input.key);
  if (!row || !(await deactivateActivation(db, row.id, input.activation_id))) {
    throw new AppError('ResourceNotFound', 'License key activation not found.');
  }
}

export type ValidatedLicenseKeyWire = LicenseKey & {
  activation: ReturnType<typeof licenseKeyActivationView> | null;
};
