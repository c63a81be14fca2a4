import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { productInclude } from '../products/repository.js';

type Client = Db | Prisma.TransactionClient;

/** Everything a checkout's wire shape shows. */
export const checkoutInclude = {
  product: { include: productInclude },
  productPrice: { include: { meter: { select: { id: true, name: true } } } },
  discount: true,
  organization: true,
  subscription: { select: { id: true, trialEnd: true } },
} as const satisfies Prisma.CheckoutInclude;

export type CheckoutRow = Prisma.CheckoutGetPayload<{ include: typeof checkoutInclude }>;

export function findCheckout(db: Client, id: string) {
  return db.checkout.findUnique({ where: { id }, include: checkoutInclude });
}

export function findCheckoutBySecret(db: Client, clientSecret: string) {
  return db.checkout.findUnique({ where: { clientSecret }, include: checkoutInclude });
}

/** Records the processor's payment of attempt `attempt`, unless the checkout moved on meanwhile. */
export function recordCheckoutPayment(
  db: Client,
  input: { checkoutId: string; attempt: number; paymentId: string; clientSecret: string | null },
) {
  return db.checkout.updateMany({
    where: { id: input.checkoutId, status: 'confirmed', paymentAttempt: input.attempt },
    data: { paymentId: input.paymentId, paymentClientSecret: input.clientSecret },
  });
}

/** What the checkout's workflow decides its next step from. */
export function findCheckoutProgress(db: Client, id: string) {
  return db.checkout.findUnique({
    where: { id },
    select: {
      status: true,
      expiresAt: true,
      paymentAttempt: true,
      paymentId: true,
      paymentClientSecret: true,
    },
  });
}

export async function findEmbedOrigin(db: Client, clientSecret: string): Promise<string | null> {
  const row = await db.checkout.findUnique({ where: { clientSecret }, select: { embedOrigin: true } });
  return row?.embedOrigin ?? null;
}

/** Serializes confirmations, updates and workflow steps of one checkout. */
export async function lockCheckout(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM checkouts WHERE id = ${id}::uuid FOR UPDATE`;
}

export function listCheckoutRows(
  db: Db,
  where: Prisma.CheckoutWhereInput,
  orderBy: Prisma.CheckoutOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.checkout.findMany({ where, orderBy, include: checkoutInclude, ...page }),
    db.checkout.count({ where }),
  ]);
}

export function insertCheckout(tx: Prisma.TransactionClient, data: Prisma.CheckoutUncheckedCreateInput) {
  return tx.checkout.create({ data, include: checkoutInclude });
}

export function updateCheckoutRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.CheckoutUncheckedUpdateInput,
) {
  return tx.checkout.update({
    where: { id },
    data: { ...data, modifiedAt: new Date() },
    include: checkoutInclude,
  });
}

/**
 * Checkouts still governed by a workflow (open, confirmed or failed) and older than `before`: the
 * reconciler starts the workflow of any whose start was lost (the API died right after the commit).
 */
export function findUnfinishedCheckouts(db: Db, before: Date, limit: number) {
  return db.checkout.findMany({
    where: { status: { in: ['open', 'confirmed', 'failed'] }, createdAt: { lt: before } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
}

/**
 * Confirmations no charge has started for since `before`: their workflow was never told (the API
 * died between the commit and the signal). A payment waiting for the buyer's authentication or the
 * processor has its id or client secret by then, and is not one of them.
 */
export function findStalledConfirmations(db: Db, before: Date, limit: number) {
  return db.checkout.findMany({
    where: { status: 'confirmed', paymentId: null, paymentClientSecret: null, modifiedAt: { lt: before } },
    select: { id: true, paymentAttempt: true },
    orderBy: { modifiedAt: 'asc' },
    take: limit,
  });
}

/**
 * Serializes the confirmations of one buyer in an organization (by their email, which every
 * confirmation has), for the rules that look at the buyer's other plans.
 */
export async function lockBuyer(tx: Prisma.TransactionClient, organizationId: string, email: string) {
  const key = `buyer:${organizationId}:${email.toLowerCase()}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/** Another checkout of a plan by this buyer is confirmed: its payment is under way. */
export async function hasPlanCheckoutInPayment(
  db: Client,
  buyer: { organizationId: string; email: string; customerId: string | null; exceptCheckoutId: string },
): Promise<boolean> {
  const row = await db.checkout.findFirst({
    where: {
      organizationId: buyer.organizationId,
      id: { not: buyer.exceptCheckoutId },
      status: 'confirmed',
      product: { recurringInterval: { not: null } },
      OR: [
        { customerEmail: { equals: buyer.email, mode: 'insensitive' } },
        ...(buyer.customerId ? [{ customerId: buyer.customerId }] : []),
      ],
    },
    select: { id: true },
  });
  return row !== null;
}

/**
 * The paid checkout whose confirmation handed out this customer-session token, if it was paid
 * since `since`: the token signs its buyer into the portal for a while after the purchase.
 */
export function findPaidCheckoutBySessionTokenHash(db: Client, tokenHash: string, since: Date) {
  return db.checkout.findFirst({
    where: {
      customerSessionTokenHash: tokenHash,
      status: 'succeeded',
      customerId: { not: null },
      modifiedAt: { gte: since },
    },
    select: { id: true, organizationId: true, customerId: true, modifiedAt: true },
  });
}

/** The confirmation's token no longer signs anyone in (its buyer signed out). */
export async function forgetCheckoutSessionToken(db: Client, tokenHash: string): Promise<void> {
  await db.checkout.updateMany({
    where: { customerSessionTokenHash: tokenHash },
    data: { customerSessionTokenHash: null },
  });
}

const checkoutExportSelect = {
  id: true,
  createdAt: true,
  status: true,
  expiresAt: true,
  currency: true,
  amount: true,
  discountAmount: true,
  netAmount: true,
  taxAmount: true,
  totalAmount: true,
  customerEmail: true,
  customerName: true,
  checkoutLinkId: true,
  product: { select: { name: true } },
} as const satisfies Prisma.CheckoutSelect;

export type CheckoutExportRow = Prisma.CheckoutGetPayload<{ select: typeof checkoutExportSelect }>;

/** One page of the export: only the columns it writes. */
export function listCheckoutExportRows(
  db: Db,
  where: Prisma.CheckoutWhereInput,
  orderBy: Prisma.CheckoutOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.checkout.findMany({ where, orderBy, select: checkoutExportSelect, ...page });
}

/** What the start of a checkout's workflow tells operators (temporal/entity-directory.ts). */
export function findCheckoutForOperators(db: Db, id: string) {
  return db.checkout.findUnique({
    where: { id },
    select: {
      organizationId: true,
      organization: { select: { name: true } },
      product: { select: { name: true, recurringInterval: true } },
      customerEmail: true,
      customer: { select: { email: true } },
      totalAmount: true,
      currency: true,
      expiresAt: true,
    },
  });
}

/**
 * A trial the organization gave (`trial_redemptions`, written by checkouts' fulfilment): to this
 * email or customer, or to this card fingerprint; null when none.
 */
export function findTrialRedemption(
  db: Client,
  organizationId: string,
  hints: { email?: string; customerId?: string | null; fingerprint?: string },
) {
  const any: Prisma.TrialRedemptionWhereInput[] = [];
  if (hints.email !== undefined) any.push({ customerEmail: hints.email });
  if (hints.customerId) any.push({ customerId: hints.customerId });
  if (hints.fingerprint !== undefined) any.push({ paymentMethodFingerprint: hints.fingerprint });
  if (any.length === 0) return Promise.resolve(null);
  return db.trialRedemption.findFirst({ where: { organizationId, OR: any }, select: { id: true } });
}

/** Records a trial given; one per checkout (its unique `checkout_id`), so a replay adds nothing. */
export function insertTrialRedemption(db: Client, row: Prisma.TrialRedemptionUncheckedCreateInput) {
  return db.trialRedemption.upsert({ where: { checkoutId: row.checkoutId }, create: row, update: {} });
}
