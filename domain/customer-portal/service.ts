// The customer portal: what a signed-in customer reads and changes of their own (docs/portal.md).
// Every read is scoped to the session's customer; another customer's object is not found.

import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { benefitView } from '../benefits/views.js';
import { grantView } from '../benefit-grants/service.js';
import { listMetersOfCustomer, getMeterOfCustomer } from '../customer-meters/service.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { taxIdFormatOf } from '../customers/rules.js';
import { findLiveCustomer, type CustomerRow } from '../customers/repository.js';
import { TAX_ID_FORMATS } from '../customers/schemas.js';
import { applyCustomerUpdate } from '../customers/service.js';
import { customerView } from '../customers/views.js';
import { oauthAccountsOf } from '../customer-accounts/service.js';
import { countDownload, findGrantedDownloadable, listDownloadableRows } from '../downloadables/repository.js';
import { DOWNLOAD_LINK_TTL_MS, signDownloadToken, verifyDownloadToken } from '../downloadables/rules.js';
import type { FileStorage } from '../files/storage.js';
import { fileView } from '../files/views.js';
import { findLicenseKey, listLicenseKeyRows } from '../license-keys/repository.js';
import { licenseKeyActivationView, licenseKeyView } from '../license-keys/views.js';
import type { LicenseKeyWithActivations } from '../license-keys/schemas.js';
import { findOriginOrders, type OrderRow } from '../orders/repository.js';
import {
  applyOrderUpdate,
  findOrderOfCustomer,
  generateInvoiceOf,
  invoiceUrlOf,
  listOrderRowsOfCustomer,
} from '../orders/service.js';
import { orderView } from '../orders/views.js';
import type { OrderUpdate } from '../orders/schemas.js';
import { findOrganizationById, findOrganizationBySlug } from '../organizations/repository.js';
import { organizationView } from '../organizations/views.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { findLiveProductsOfOrganization, findProductsByIds } from '../products/repository.js';
import { productView } from '../products/views.js';
import type { PaymentMethodsContext } from '../payment-methods/service.js';
import type { SubscriptionChangeContext } from '../subscriptions/service.js';
import {
  cancelCustomerSubscription,
  findSubscriptionOfCustomer,
  listSubscriptionRowsOfCustomer,
  retryCustomerSubscriptionPayment,
  updateCustomerSubscription,
} from '../subscriptions/customer-changes.js';
import { paymentConfirmationsOf, type CustomerPaymentContext } from '../subscriptions/customer-payments.js';
import type { Subscription } from '../subscriptions/schemas.js';
import { subscriptionView } from '../subscriptions/views.js';
import {
  customerBenefitGrantSchema,
  customerCustomerMeterSchema,
  customerOrderSchema,
  customerOrganizationSchema,
  customerPortalCustomerSchema,
  customerSubscriptionSchema,
  downloadableSchema,
  type CustomerBenefitGrant,
  type CustomerBenefitGrantListQuery,
  type CustomerBenefitGrantUpdate,
  type CustomerCustomerMeter,
  type CustomerCustomerMeterListQuery,
  type CustomerLicenseKey,
  type CustomerLicenseKeyListQuery,
  type CustomerOrder,
  type CustomerOrderListQuery,
  type CustomerOrganization,
  type CustomerPortalCustomer,
  type CustomerPortalCustomerUpdate,
  type CustomerSubscription,
  type CustomerSubscriptionListQuery,
  type CustomerSubscriptionUpdate,
  type Downloadable,
  type DownloadableListQuery,
} from './schemas.js';
import { chooseGrantAccount } from '../benefit-grants/requests.js';

export type PortalContext = {
  db: Db;
  publicUrl: string;
  storage: FileStorage;
  /** Signs download links (the deployment's secret). */
  linkSecret: () => Promise<string>;
  subscriptions: SubscriptionChangeContext;
  paymentMethods: PaymentMethodsContext;
  customerPayments: CustomerPaymentContext;
};

// Customer ----------------------------------------------------------------------------------------

async function signedInCustomer(db: Db, customer: CustomerCaller): Promise<CustomerRow> {
  const row = await findLiveCustomer(db, customer.customerId);
  if (!row) throw new AppError('Unauthorized', 'This customer no longer exists: sign in again.');
  return row;
}

/** With the GitHub and Discord accounts the customer linked (our extension's oauth-accounts). */
const portalCustomerView = (
  row: CustomerRow,
  oauthAccounts: CustomerPortalCustomer['oauth_accounts'],
): CustomerPortalCustomer =>
  customerPortalCustomerSchema.parse({ ...customerView(row), oauth_accounts: oauthAccounts });

export async function getPortalCustomer(ctx: PortalContext, customer: CustomerCaller) {
  const row = await signedInCustomer(ctx.db, customer);
  return portalCustomerView(row, await oauthAccountsOf(ctx.db, row.id));
}

export async function updatePortalCustomer(
  ctx: PortalContext,
  customer: CustomerCaller,
  input: CustomerPortalCustomerUpdate,
): Promise<CustomerPortalCustomer> {
  const current = await signedInCustomer(ctx.db, customer);
  let taxId: [string, (typeof TAX_ID_FORMATS)[number]] | null | undefined;
  if (input.tax_id === null) taxId = null;
  else if (input.tax_id !== undefined) {
    const country =
      (input.billing_address ?? (current.billingAddress as { country?: string } | null))?.country ?? null;
    const format = taxIdFormatOf(input.tax_id, TAX_ID_FORMATS, country);
    if (!format) {
      throw new InvalidFieldError(
        ['body', 'tax_id'],
        'This tax number is not in a format we recognise: check it, with its country prefix (e.g. DE123456789).',
      );
    }
    taxId = [input.tax_id, format];
  }
  const updated = await applyCustomerUpdate(ctx.db, current, {
    ...(input.email ? { email: input.email } : {}),
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.billing_address !== undefined ? { billing_address: input.billing_address } : {}),
    ...(taxId !== undefined ? { tax_id: taxId } : {}),
  } as Parameters<typeof applyCustomerUpdate>[2]);
  return portalCustomerView(updated, await oauthAccountsOf(ctx.db, updated.id));
}

// Products and their seller, as a buyer sees them ------------------------------------------------------

async function organizationWire(db: Db, organizationId: string) {
  return organizationView((await findOrganizationById(db.sql, organizationId))!);
}

async function productsWithOrganization(ctx: PortalContext, organizationId: string, productIds: string[]) {
  const organization = await organizationWire(ctx.db, organizationId);
  const rows = await findProductsByIds(ctx.db, [...new Set(productIds)]);
  return new Map(rows.map((row) => [row.id, { ...productView(row, ctx.publicUrl), organization }]));
}

export async function getPortalOrganization(ctx: PortalContext, slug: string): Promise<CustomerOrganization> {
  const found = await findOrganizationBySlug(ctx.db, slug);
  if (!found) throw new AppError('ResourceNotFound', 'Organization not found');
  const organization = await organizationWire(ctx.db, found.id);
  const products = await findLiveProductsOfOrganization(ctx.db, found.id);
  return customerOrganizationSchema.parse({
    organization,
    products: products.map((row) => productView(row, ctx.publicUrl)),
  });
}

// Orders --------------------------------------------------------------------------------------------

async function customerOrderViews(ctx: PortalContext, customer: CustomerCaller, rows: OrderRow[]) {
  const products = await productsWithOrganization(
    ctx,
    customer.organizationId,
    rows.map((row) => row.productId),
  );
  const pending = rows.filter((row) => row.status === 'pending' && row.subscriptionId);
  const confirmations = await paymentConfirmationsOf(
    ctx.db,
    pending.map((row) => row.subscriptionId!),
  );
  return rows.map((row): CustomerOrder => {
    const waiting = row.subscriptionId ? confirmations.get(row.subscriptionId) : undefined;
    return customerOrderSchema.parse({
      ...orderView(row),
      product: products.get(row.productId),
      payment_confirmation: waiting?.orderId === row.id ? { payment_method_id: waiting.savedCardId } : null,
    });
  });
}

export async function listPortalOrders(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerOrderListQuery,
) {
  const [rows, total] = await listOrderRowsOfCustomer(ctx.db, customer, query);
  return paginated(await customerOrderViews(ctx, customer, rows), total, query);
}

export async function getPortalOrder(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const [view] = await customerOrderViews(ctx, customer, [await findOrderOfCustomer(ctx.db, customer, id)]);
  return view!;
}

export async function updatePortalOrder(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
  input: OrderUpdate,
): Promise<CustomerOrder> {
  await findOrderOfCustomer(ctx.db, customer, id);
  await applyOrderUpdate(ctx.db, id, input);
  return getPortalOrder(ctx, customer, id);
}

export async function generatePortalInvoice(ctx: PortalContext, customer: CustomerCaller, id: string) {
  await generateInvoiceOf(
    { db: ctx.db, storage: ctx.storage },
    await findOrderOfCustomer(ctx.db, customer, id),
  );
}

export async function portalInvoice(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return invoiceUrlOf({ db: ctx.db, storage: ctx.storage }, await findOrderOfCustomer(ctx.db, customer, id));
}

// Subscriptions ----------------------------------------------------------------------------------------

async function customerSubscriptionViews(
  ctx: PortalContext,
  customer: CustomerCaller,
  views: Subscription[],
): Promise<CustomerSubscription[]> {
  const organization = await organizationWire(ctx.db, customer.organizationId);
  const confirmations = await paymentConfirmationsOf(
    ctx.db,
    views.filter((view) => view.status === 'past_due').map((view) => view.id),
  );
  return views.map((view) => {
    const waiting = confirmations.get(view.id);
    return customerSubscriptionSchema.parse({
      ...view,
      product: { ...view.product, organization },
      payment_confirmation: waiting
        ? { order_id: waiting.orderId, payment_method_id: waiting.savedCardId }
        : null,
    });
  });
}

export async function listPortalSubscriptions(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerSubscriptionListQuery,
) {
  const [rows, total] = await listSubscriptionRowsOfCustomer(ctx.db, customer, query);
  const views = rows.map((row) => subscriptionView(row, ctx.publicUrl));
  return paginated(await customerSubscriptionViews(ctx, customer, views), total, query);
}

export async function getPortalSubscription(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const row = await findSubscriptionOfCustomer(ctx.db, customer, id);
  const [view] = await customerSubscriptionViews(ctx, customer, [subscriptionView(row, ctx.publicUrl)]);
  return view!;
}

export async function updatePortalSubscription(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
  input: CustomerSubscriptionUpdate,
) {
  const view = await updateCustomerSubscription(ctx.subscriptions, customer, id, input);
  return (await customerSubscriptionViews(ctx, customer, [view]))[0]!;
}

export async function retryPortalSubscriptionPayment(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
) {
  const view = await retryCustomerSubscriptionPayment(ctx.subscriptions, customer, id);
  return (await customerSubscriptionViews(ctx, customer, [view]))[0]!;
}

export async function cancelPortalSubscription(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const view = await cancelCustomerSubscription(ctx.subscriptions, customer, id);
  return (await customerSubscriptionViews(ctx, customer, [view]))[0]!;
}

// Benefit grants ---------------------------------------------------------------------------------------

const grantInclude = { benefit: true, customer: true } as const;
type PortalGrantRow = Prisma.BenefitGrantGetPayload<{ include: typeof grantInclude }>;

/**
 * What the customer holds, or waits for (a grant that needs their linked account): revoked grants
 * and meter credits not yet credited are not theirs to see.
 */
const visibleGrants = (customer: CustomerCaller): Prisma.BenefitGrantWhereInput => ({
  customerId: customer.customerId,
  desired: 'granted',
  benefit: { deletedAt: null, organizationId: customer.organizationId },
  OR: [
    { grantedAt: { not: null }, revokedAt: null },
    { benefit: { type: { in: ['github_repository', 'discord'] } } },
  ],
});

/** The benefit as its holder sees it: only the files still offered, no Discord token. */
function subscriberProperties(benefit: PortalGrantRow['benefit']): Record<string, unknown> {
  const properties = benefit.properties as Record<string, unknown>;
  if (benefit.type !== 'downloadables') return properties;
  const { files, archived } = properties as { files: string[]; archived: Record<string, boolean> };
  return { active_files: files.filter((file) => !archived[file]) };
}

async function customerGrantViews(ctx: PortalContext, customer: CustomerCaller, rows: PortalGrantRow[]) {
  const organization = await organizationWire(ctx.db, customer.organizationId);
  // Every grant here is the signed-in customer's.
  const oauthAccounts = await oauthAccountsOf(ctx.db, customer.customerId);
  return rows.map((row): CustomerBenefitGrant => {
    const { error: _error, ...grant } = grantView(row, row.customer) as Record<string, unknown>;
    return customerBenefitGrantSchema.parse({
      ...grant,
      customer: portalCustomerView(row.customer, oauthAccounts),
      benefit: {
        ...benefitView(row.benefit),
        organization,
        properties: subscriberProperties(row.benefit),
      },
    });
  });
}

const GRANT_SORTS: Record<
  string,
  (direction: 'asc' | 'desc') => Prisma.BenefitGrantOrderByWithRelationInput
> = {
  granted_at: (direction) => ({ grantedAt: direction }),
  type: (direction) => ({ benefit: { type: direction } }),
  organization: (direction) => ({ createdAt: direction }),
};

export async function listPortalGrants(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerBenefitGrantListQuery,
) {
  const where: Prisma.BenefitGrantWhereInput = { AND: [visibleGrants(customer)] };
  const and = where.AND as Prisma.BenefitGrantWhereInput[];
  if (query.type) and.push({ benefit: { type: { in: query.type } } });
  if (query.benefit_id) and.push({ benefitId: { in: query.benefit_id } });
  if (query.order_id) and.push({ orderId: { in: query.order_id } });
  if (query.subscription_id) and.push({ subscriptionId: { in: query.subscription_id } });
  if (query.checkout_id) and.push({ id: { in: [] } });
  const orderBy = [
    ...parseSorting<string>(query.sorting ?? ['-granted_at']).map(({ field, direction }) =>
      GRANT_SORTS[field]!(direction),
    ),
    { id: 'asc' as const },
  ];
  const [rows, total] = await ctx.db.$transaction([
    ctx.db.benefitGrant.findMany({ where, include: grantInclude, orderBy, ...pageToSkipTake(query) }),
    ctx.db.benefitGrant.count({ where }),
  ]);
  return paginated(await customerGrantViews(ctx, customer, rows), total, query);
}

async function findPortalGrant(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const row = await ctx.db.benefitGrant.findFirst({
    where: { AND: [{ id }, visibleGrants(customer)] },
    include: grantInclude,
  });
  if (!row) throw new AppError('ResourceNotFound', 'Benefit grant not found');
  return row;
}

export async function getPortalGrant(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return (await customerGrantViews(ctx, customer, [await findPortalGrant(ctx, customer, id)]))[0]!;
}

/**
 * Only GitHub and Discord grants take a change: the linked account they go to. Every other type
 * has nothing to change.
 */
export async function updatePortalGrant(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
  input: CustomerBenefitGrantUpdate,
): Promise<CustomerBenefitGrant> {
  const row = await findPortalGrant(ctx, customer, id);
  if (input.benefit_type !== row.benefit.type) {
    throw new InvalidFieldError(['body', 'benefit_type'], `This grant is of a ${row.benefit.type} benefit.`);
  }
  if (input.benefit_type !== 'github_repository' && input.benefit_type !== 'discord') {
    return (await customerGrantViews(ctx, customer, [row]))[0]!;
  }
  await chooseGrantAccount(
    ctx.db,
    { customerId: row.customerId, benefitId: row.benefitId, benefitType: row.benefit.type },
    input.properties.account_id,
  );
  return getPortalGrant(ctx, customer, id);
}

// License keys -------------------------------------------------------------------------------------------

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

// Downloadables -----------------------------------------------------------------------------------------

export async function listPortalDownloadables(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: DownloadableListQuery,
) {
  const where: Prisma.DownloadableWhereInput = {
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    ...(query.benefit_id ? { benefitId: { in: query.benefit_id } } : {}),
  };
  const [rows, total] = await listDownloadableRows(ctx.db, where, pageToSkipTake(query));
  const secret = await ctx.linkSecret();
  const expiresAtMs = Date.now() + DOWNLOAD_LINK_TTL_MS;
  const items = rows.map((row): Downloadable =>
    downloadableSchema.parse({
      id: row.id,
      benefit_id: row.benefitId,
      file: {
        ...fileView(row.file, ctx.publicUrl),
        download: {
          url: `${ctx.publicUrl}/v1/customer-portal/downloadables/${signDownloadToken(secret, row.id, expiresAtMs)}`,
          expires_at: new Date(expiresAtMs).toISOString(),
        },
      },
    }),
  );
  return paginated(items, total, query);
}

/**
 * A download link followed: where the file's bytes are (a short-lived storage URL). The link is
 * the permission, so no session is asked for; a tampered link is not found, an old one is gone.
 */
export async function followDownloadLink(ctx: PortalContext, token: string): Promise<string> {
  const check = verifyDownloadToken(await ctx.linkSecret(), token, Date.now());
  if (check.outcome === 'malformed') throw new AppError('BadRequest', 'This is not a download link.');
  if (check.outcome === 'forged') throw new AppError('ResourceNotFound', 'Download not found.');
  if (check.outcome !== 'valid') {
    throw new AppError(
      'ResourceUnavailable',
      'This download link has expired: open your downloads again for a new one.',
    );
  }
  const row = await findGrantedDownloadable(ctx.db, check.downloadableId);
  if (!row) throw new AppError('ResourceNotFound', 'Download not found.');
  await countDownload(ctx.db, row.id);
  return ctx.storage.downloadUrl({
    path: row.file.path,
    filename: row.file.name,
    mimeType: row.file.mimeType,
    expiresInMs: DOWNLOAD_LINK_TTL_MS,
  });
}

// Meters ------------------------------------------------------------------------------------------------

export async function listPortalMeters(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerCustomerMeterListQuery,
) {
  const { items, total } = await listMetersOfCustomer(ctx.db, customer, query);
  return paginated(
    items.map((item): CustomerCustomerMeter => customerCustomerMeterSchema.parse(item)),
    total,
    query,
  );
}

export async function getPortalMeter(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return customerCustomerMeterSchema.parse(await getMeterOfCustomer(ctx.db, customer, id));
}
