import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Caller } from '../access/rules.js';
import { organizationsToList } from '../access/service.js';
import { metadataWhere } from '../metadata/rules.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { csvLine, pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findLiveCustomer,
  findLiveCustomerByExternalId,
  listLiveCustomerPage,
  listLiveCustomers,
  violatedCustomerConstraint,
  type CustomerRow,
  findLiveCustomerOfOrganization,
} from './repository.js';
import { taxIdFormatOf, validateTaxId } from './rules.js';
import {
  TAX_ID_FORMATS,
  type CustomerExportQuery,
  type CustomerCreate,
  type CustomerListQuery,
} from './schemas.js';
import { CUSTOMER_EXPORT_COLUMNS, customerExportRow, customerView } from './views.js';

// The customer's record: its lookups and lists. Its writes record the customer's state with them,
// so they live in customer-state/service.ts.

/**
 * The tax id as stored: its number normalized for its format, or a field error. A number sent
 * without its format (@polar-sh/sdk@0.48.1) takes the format it fits, given the billing country.
 */
export function checkedTaxId(
  taxId: CustomerCreate['tax_id'],
  country: string | null,
): Prisma.InputJsonValue | null | undefined {
  if (!taxId) return taxId;
  if (typeof taxId === 'string') {
    const format = taxIdFormatOf(taxId, TAX_ID_FORMATS, country);
    if (!format) throw new InvalidFieldError(['body', 'tax_id'], 'Not a valid tax number.');
    return [validateTaxId(taxId, format)!, format];
  }
  const [value, format] = taxId;
  const normalized = validateTaxId(value, format);
  if (!normalized) throw new InvalidFieldError(['body', 'tax_id'], `Not a valid ${format} number.`);
  return [normalized, format];
}

/** A live customer's email or external id taken: the field error that says so. */
export function conflictError(error: unknown): never {
  const constraint = violatedCustomerConstraint(error);
  if (constraint === 'email') {
    throw new InvalidFieldError(['body', 'email'], 'A customer with this email address already exists.');
  }
  if (constraint === 'external_id') {
    throw new InvalidFieldError(['body', 'external_id'], 'A customer with this external ID already exists.');
  }
  throw error;
}

const SORT_COLUMNS = { created_at: 'createdAt', email: 'email', name: 'name' } as const;

/** The customers of `organizationIds` the list's filters keep. */
function customerWhere(organizationIds: string[], query: CustomerExportQuery): Prisma.CustomerWhereInput {
  const where: Prisma.CustomerWhereInput = { organizationId: { in: organizationIds } };
  if (query.email) where.email = query.email.toLowerCase();
  if (query.query) {
    where.OR = [
      { email: { contains: query.query, mode: 'insensitive' } },
      { name: { contains: query.query, mode: 'insensitive' } },
      { externalId: { contains: query.query, mode: 'insensitive' } },
    ];
  }
  if (query.metadata) where.AND = metadataWhere(query.metadata);
  return where;
}

const customerSorting = (sorting: CustomerExportQuery['sorting']) => [
  ...parseSorting<keyof typeof SORT_COLUMNS>(sorting ?? ['-created_at']).map(({ field, direction }) => ({
    [SORT_COLUMNS[field]]: direction,
  })),
  // Equal keys still page in one order.
  { id: 'asc' as const },
];

export async function listCustomers(db: Db, caller: Caller, query: CustomerListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const [rows, total] = await listLiveCustomers(
    db,
    customerWhere(organizationIds, query),
    customerSorting(query.sorting),
    pageToSkipTake(query),
  );
  return paginated(rows.map(customerView), total, query);
}

const EXPORT_PAGE = 500;

/** The list's customers as CSV lines (header first), read a page at a time. */
export async function* exportCustomers(
  db: Db,
  caller: Caller,
  query: CustomerExportQuery,
): AsyncGenerator<string> {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where = customerWhere(organizationIds, query);
  const orderBy = customerSorting(query.sorting);
  yield csvLine(CUSTOMER_EXPORT_COLUMNS);
  for (let skip = 0; ; skip += EXPORT_PAGE) {
    const rows = await listLiveCustomerPage(db, where, orderBy, { skip, take: EXPORT_PAGE });
    for (const row of rows) yield csvLine(customerExportRow(row));
    if (rows.length < EXPORT_PAGE) return;
  }
}

/** A live customer the caller may see, by id or by external id; others are not found. */
export async function findCustomerFor(
  db: Db,
  caller: Caller,
  ref: { id: string } | { externalId: string },
): Promise<CustomerRow> {
  const organizationIds = await organizationsToList(db, caller, undefined);
  const row =
    'id' in ref
      ? await findLiveCustomer(db, ref.id)
      : await findLiveCustomerByExternalId(db, organizationIds, ref.externalId);
  if (!row || !organizationIds.includes(row.organizationId))
    throw new AppError('ResourceNotFound', 'Customer not found');
  return row;
}

export type PurchaseCustomer = {
  organizationId: string;
  /** The customer the seller named on the checkout, if any. */
  customerId: string | null;
  externalId: string | null;
  email: string;
  name: string | null;
  billingAddress: Prisma.InputJsonValue | null;
  /** The tax number the buyer typed, if any (a checkout's has no format). */
  taxId: string | null;
};

/** The existing customer a purchase goes to: by id, then external id, then email. */
export async function findPurchasingCustomer(
  db: Db | Prisma.TransactionClient,
  buyer: Pick<PurchaseCustomer, 'organizationId' | 'customerId' | 'externalId' | 'email'>,
): Promise<CustomerRow | null> {
  const find = (by: Parameters<typeof findLiveCustomerOfOrganization>[2]) =>
    findLiveCustomerOfOrganization(db, buyer.organizationId, by);
  return (
    (buyer.customerId ? await find({ id: buyer.customerId }) : null) ??
    (buyer.externalId ? await find({ externalId: buyer.externalId }) : null) ??
    (await find({ email: buyer.email.toLowerCase() }))
  );
}
