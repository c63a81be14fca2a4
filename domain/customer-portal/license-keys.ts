// The signed-in customer's license keys (Polar's portal `license_keys`), each with the order it
// was granted for. Checking a key from the buyer's machine (validate, activate, deactivate) needs
// no session and lives in license-keys/service.ts.

import type { Prisma } from '../../generated/prisma/client.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { findLicenseKey, listLicenseKeyRows } from '../license-keys/repository.js';
import { licenseKeyActivationView, licenseKeyView } from '../license-keys/views.js';
import type { LicenseKeyWithActivations } from '../license-keys/schemas.js';
import { findOriginOrders } from '../orders/repository.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import type { PortalContext } from './context.js';
import type { CustomerLicenseKey, CustomerLicenseKeyListQuery } from './schemas.js';

export async function listPortalLicenseKeys(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerLicenseKeyListQuery,
) {
  const where: Prisma.LicenseKeyWhereInput = {
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    ...(query.benefit_id ? { benefitId: query.benefit_id } : {}),
  };
  const [rows, total] = await listLicenseKeyRows(ctx.db, where, pageToSkipTake(query));
  const origins = await findOriginOrders(ctx.db.sql, {
    orderIds: rows.flatMap(({ grant }) => (grant.orderId ? [grant.orderId] : [])),
    subscriptionIds: rows.flatMap(({ grant }) => (grant.subscriptionId ? [grant.subscriptionId] : [])),
  });
  const byOrder = new Map(origins.map((order) => [order.id, order]));
  const bySubscription = new Map(origins.map((order) => [order.subscriptionId, order]));
  return paginated(
    rows.map((row): CustomerLicenseKey => {
      const { orderId, subscriptionId } = row.grant;
      const origin = orderId
        ? byOrder.get(orderId)
        : subscriptionId
          ? bySubscription.get(subscriptionId)
          : null;
      return {
        ...licenseKeyView(row),
        granted_for: origin
          ? {
              product_name: origin.productName,
              order_id: origin.id,
              ordered_at: origin.createdAt.toISOString(),
              subscription_id: origin.subscriptionId,
            }
          : null,
      };
    }),
    total,
    query,
  );
}

export async function getPortalLicenseKey(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
): Promise<LicenseKeyWithActivations> {
  const row = await findLicenseKey(ctx.db, id);
  if (!row || row.customerId !== customer.customerId)
    throw new AppError('ResourceNotFound', 'License key not found');
  return { ...licenseKeyView(row), activations: row.activations.map(licenseKeyActivationView) };
}
