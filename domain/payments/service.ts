import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationsToList } from '../access/service.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { findPaymentRow, listPaymentRows } from './repository.js';
import type { Payment, PaymentListQuery } from './schemas.js';
import { paymentView } from './views.js';

const SORT_COLUMNS = {
  created_at: 'createdAt',
  status: 'status',
  amount: 'amount',
  method: 'method',
} as const;

export async function listPayments(db: Db, caller: Caller, query: PaymentListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.PaymentWhereInput = { organizationId: { in: organizationIds } };
  if (query.checkout_id) where.checkoutId = { in: query.checkout_id };
  if (query.order_id) where.orderId = { in: query.order_id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  if (query.status) where.status = { in: query.status };
  if (query.method) where.method = { in: query.method };
  // Customers' emails are stored lowercase.
  if (query.customer_email) {
    where.customer = { email: { in: query.customer_email.map((email) => email.toLowerCase()) } };
  }
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await listPaymentRows(db, where, orderBy, pageToSkipTake(query));
  return paginated(rows.map(paymentView), total, query);
}

/** Another organization's payment answers as a missing one. */
export async function getPayment(db: Db, caller: Caller, id: string): Promise<Payment> {
  const [row, organizationIds] = await Promise.all([
    findPaymentRow(db, id),
    accessibleOrganizationIds(db, caller),
  ]);
  if (!row || !organizationIds.includes(row.organizationId)) throw new AppError('ResourceNotFound');
  return paymentView(row);
}
