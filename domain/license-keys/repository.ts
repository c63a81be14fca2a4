import type { Db, SqlClient } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { returningList } from '../../infra/sql.js';

type Client = Db | Prisma.TransactionClient;

const liveActivations = { where: { deletedAt: null }, orderBy: { createdAt: 'asc' as const } };

const grantedFor = { select: { orderId: true, subscriptionId: true } } as const;

export function listLicenseKeyRows(
  db: Db,
  where: Prisma.LicenseKeyWhereInput,
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.licenseKey.findMany({
      where,
      include: { customer: true, grant: { select: { orderId: true, subscriptionId: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      ...page,
    }),
    db.licenseKey.count({ where }),
  ]);
}

export function findLicenseKey(db: Client, id: string) {
  return db.licenseKey.findUnique({
    where: { id },
    include: { customer: true, activations: liveActivations, grant: grantedFor },
  });
}

export function updateLicenseKeyRow(tx: Client, id: string, data: Prisma.LicenseKeyUncheckedUpdateInput) {
  return tx.licenseKey.update({
    where: { id },
    data: { ...data, modifiedAt: new Date() },
    include: { customer: true, activations: liveActivations, grant: grantedFor },
  });
}

export function findActivation(db: Client, licenseKeyId: string, id: string) {
  return db.licenseKeyActivation.findFirst({ where: { id, licenseKeyId, deletedAt: null } });
}

/**
 * The purchase that granted a key, which validated keys show from 2027-01: reads the order and the
 * subscription, which `orders` and `subscriptions` own, since the key derives from them.
 */
export async function findKeyPurchase(
  db: Client,
  grant: { orderId: string | null; subscriptionId: string | null },
) {
  const [order, subscription] = await Promise.all([
    grant.orderId
      ? db.order.findUnique({
          where: { id: grant.orderId },
          select: { id: true, createdAt: true, status: true },
        })
      : null,
    grant.subscriptionId
      ? db.subscription.findUnique({
          where: { id: grant.subscriptionId },
          select: {
            id: true,
            status: true,
            currentPeriodStart: true,
            currentPeriodEnd: true,
            cancelAtPeriodEnd: true,
            endsAt: true,
            endedAt: true,
          },
        })
      : null,
  ]);
  return { order, subscription };
}
export type KeyPurchase = Awaited<ReturnType<typeof findKeyPurchase>>;

export type LicenseKeyRow = NonNullable<Awaited<ReturnType<typeof findLicenseKey>>>;
export type LicenseKeyActivationRow = NonNullable<Awaited<ReturnType<typeof findActivation>>>;

const keyFields = Prisma.LicenseKeyScalarFieldEnum;
export type LicenseKeyRecord = Prisma.LicenseKeyGetPayload<object>;

// The grant step's statements, on its transaction's connection.

export async function licenseKeyOfGrant(sql: SqlClient, grantId: string): Promise<LicenseKeyRecord | null> {
  const { rows } = await sql.query<LicenseKeyRecord>(
    `SELECT ${returningList(keyFields)} FROM license_keys WHERE grant_id = $1::uuid`,
    [grantId],
  );
  return rows[0] ?? null;
}

export async function insertLicenseKey(
  sql: SqlClient,
  key: Pick<
    LicenseKeyRecord,
    | 'organizationId'
    | 'customerId'
    | 'benefitId'
    | 'grantId'
    | 'key'
    | 'limitActivations'
    | 'limitUsage'
    | 'expiresAt'
  >,
): Promise<LicenseKeyRecord> {
  const { rows } = await sql.query<LicenseKeyRecord>(
    `INSERT INTO license_keys (organization_id, customer_id, benefit_id, grant_id, key, status, limit_activations, limit_usage, expires_at)
     VALUES ($1, $2, $3, $4, $5, 'granted', $6, $7, $8) RETURNING ${returningList(keyFields)}`,
    [
      key.organizationId,
      key.customerId,
      key.benefitId,
      key.grantId,
      key.key,
      key.limitActivations,
      key.limitUsage,
      key.expiresAt,
    ],
  );
  return rows[0]!;
}

/** A re-grant gives the revoked key back; a key the seller disabled stays disabled. */
export async function regrantLicenseKey(sql: SqlClient, id: string): Promise<void> {
  await sql.query(
    `UPDATE license_keys SET status = 'granted', modified_at = now() WHERE id = $1::uuid AND status = 'revoked'`,
    [id],
  );
}

export async function revokeLicenseKey(sql: SqlClient, id: string): Promise<void> {
  await sql.query(
    `UPDATE license_keys SET status = 'revoked', modified_at = now() WHERE id = $1::uuid AND status <> 'revoked'`,
    [id],
  );
}

/** The benefit's new limits; the key's status and expiry are the key's own. */
export async function setLicenseKeyLimits(
  sql: SqlClient,
  id: string,
  limits: { limitActivations: number | null; limitUsage: number | null },
): Promise<void> {
  await sql.query(
    `UPDATE license_keys SET limit_activations = $2, limit_usage = $3, modified_at = now() WHERE id = $1::uuid`,
    [id, limits.limitActivations, limits.limitUsage],
  );
}

export function findLicenseKeyByKey(db: Client, organizationId: string, key: string) {
  return db.licenseKey.findUnique({
    where: { organizationId_key: { organizationId, key } },
    include: { customer: true, activations: liveActivations, grant: grantedFor },
  });
}

/** Counts a validation (and the usage it spends) in one statement: concurrent checks all count. */
export async function recordLicenseKeyValidation(
  sql: SqlClient,
  id: string,
  incrementUsage: number,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE license_keys SET validations = validations + 1, usage = usage + $2, last_validated_at = $3
     WHERE id = $1::uuid AND (limit_usage IS NULL OR usage + $2 <= limit_usage)`,
    [id, incrementUsage, at],
  );
  return rowCount === 1;
}

/**
 * An activation, unless the key already has `limit` live ones: the count and the insert are one
 * statement under the key's row lock, so two devices racing for the last slot get one.
 */
export async function insertActivationWithinLimit(
  tx: Prisma.TransactionClient,
  licenseKeyId: string,
  limit: number,
  data: { label: string; conditions: Prisma.InputJsonValue; meta: Prisma.InputJsonValue },
) {
  await tx.$queryRaw`SELECT 1 FROM license_keys WHERE id = ${licenseKeyId}::uuid FOR UPDATE`;
  const live = await tx.licenseKeyActivation.count({ where: { licenseKeyId, deletedAt: null } });
  if (live >= limit) return null;
  return tx.licenseKeyActivation.create({ data: { licenseKeyId, ...data } });
}

export async function deactivateActivation(db: Client, licenseKeyId: string, id: string): Promise<boolean> {
  const { count } = await db.licenseKeyActivation.updateMany({
    where: { id, licenseKeyId, deletedAt: null },
    data: { deletedAt: new Date(), modifiedAt: new Date() },
  });
  return count === 1;
}

export function listLicenseKeysOfCustomer(
  db: Db,
  where: Prisma.LicenseKeyWhereInput,
  page: { skip: number; take: number },
) {
  return listLicenseKeyRows(db, where, page);
}
