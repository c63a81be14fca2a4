// What every checkout operation shares (docs/checkouts.md): the context they run in, the interface
// of the `checkout:<id>` workflows, rendering a checkout, opening one, and its `checkout.updated`
// event. The operations are split by who calls them: seller.ts (the API's organization callers),
// client.ts (the buyer, by client secret), changes.ts (the re-pricing both of them use),
// link-visits.ts (a checkout link's public URL), workflow-state.ts (the workflow and its reconciler).
import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { addressSchema } from '../addresses/schemas.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { findProductsByIds } from '../products/repository.js';
import type { TaxCalculator } from '../tax/calculator.js';
import type { PricedCheckout } from './pricing.js';
import { insertCheckout, type CheckoutRow } from './repository.js';
import type { CheckoutPaymentSignal } from './rules.js';
import type { CheckoutPublic } from './schemas.js';
import { checkoutPublicView, checkoutView } from './views.js';

/** What checkouts ask of their `checkout:<id>` workflows; temporal/checkouts.ts implements it. */
export type CheckoutWorkflows = {
  /** Starts the checkout's workflow unless it runs; a new checkout's expiry saves the first read. */
  start(checkoutId: string, created?: { expiresAt: Date }): Promise<void>;
  /** The buyer confirmed payment attempt `attempt`: wakes the workflow, starting it if it ended. */
  signalConfirmed(checkoutId: string, attempt: number): Promise<void>;
  /** The processor's word on one of the checkout's payments: wakes the workflow the same way. */
  signalPayment(checkoutId: string, payment: CheckoutPaymentSignal): Promise<void>;
  /** Starts the workflow of each of these checkouts that has none running; answers their workflow ids. */
  startMissing(checkoutIds: string[]): Promise<string[]>;
};

export type CheckoutsContext = {
  db: Db;
  publicUrl: string;
  tax: TaxCalculator;
  workflows: CheckoutWorkflows;
  /** How long a new checkout stays open. */
  checkoutTtlMs: number;
  /** Shown to the hosted page (e.g. Stripe's publishable key); string values only. */
  processorMetadata: Record<string, string>;
  now?: () => Date;
};

export const nowOf = (ctx: { now?: () => Date }) => ctx.now?.() ?? new Date();

type DbClient = Db | Prisma.TransactionClient;

/** Row locks serialize a checkout's writes; under a burst they wait longer than Prisma's defaults. */
export const LOCKING_TRANSACTION = { maxWait: 60_000, timeout: 60_000 } as const;

/** What rendering a checkout needs (activities have it without the API's tax and workflows). */
export type CheckoutViewContext = Pick<CheckoutsContext, 'db' | 'publicUrl' | 'processorMetadata'>;

/** Renders checkouts, loading the products each one offers in one query for all of them. */
export async function renderCheckouts(
  ctx: CheckoutViewContext,
  rows: CheckoutRow[],
  client: DbClient = ctx.db,
) {
  const offered = await findProductsByIds(client, [...new Set(rows.flatMap((row) => row.productIds))]);
  return rows.map((row) =>
    checkoutView(
      row,
      offered.filter((product) => product.organizationId === row.organizationId),
      ctx,
    ),
  );
}

/** `client`: the transaction the row was read in, so rendering inside it needs no second connection. */
export async function renderCheckout(ctx: CheckoutViewContext, row: CheckoutRow, client: DbClient = ctx.db) {
  const [checkout] = await renderCheckouts(ctx, [row], client);
  return checkout!;
}

export async function renderPublicCheckout(
  ctx: CheckoutViewContext,
  row: CheckoutRow,
): Promise<CheckoutPublic> {
  const offered = await findProductsByIds(ctx.db, row.productIds);
  return checkoutPublicView(
    row,
    offered.filter((product) => product.organizationId === row.organizationId),
    ctx,
  );
}

/** The columns a pricing decides, for inserts and updates alike. */
export function pricingColumns(priced: PricedCheckout) {
  return {
    productId: priced.productId,
    productPriceId: priced.productPriceId,
    currency: priced.currency,
    amount: priced.amount,
    seats: priced.seats,
    discountId: priced.discountId,
    discountAmount: priced.discountAmount,
    netAmount: priced.netAmount,
    taxAmount: priced.taxAmount,
    taxReference: priced.taxReference,
    totalAmount: priced.totalAmount,
    customFieldData: priced.customFieldData,
  };
}

export function addressOf(value: Prisma.JsonValue | null | undefined) {
  return value === null || value === undefined ? null : addressSchema.parse(value);
}

function newClientSecret(): string {
  return `tollgate_c_${randomBytes(24).toString('base64url')}`;
}

type OpeningFields = Omit<
  Prisma.CheckoutUncheckedCreateInput,
  keyof ReturnType<typeof pricingColumns> | 'status' | 'clientSecret' | 'expiresAt' | 'createdAt'
>;

/** Writes a new open checkout with its `checkout.created`, then starts its workflow. */
export async function openCheckout(
  ctx: CheckoutsContext,
  now: Date,
  priced: PricedCheckout,
  fields: OpeningFields,
): Promise<CheckoutRow> {
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await insertCheckout(tx, {
      ...fields,
      ...pricingColumns(priced),
      status: 'open',
      clientSecret: newClientSecret(),
      expiresAt: new Date(now.getTime() + ctx.checkoutTtlMs),
      createdAt: now,
    });
    await recordEvent(tx, {
      organizationId: created.organizationId,
      type: 'checkout.created',
      data: await renderCheckout(ctx, created, tx),
      at: now,
    });
    return created;
  });
  await ctx.workflows.start(row.id, { expiresAt: row.expiresAt });
  return row;
}

/** The checkout's `checkout.updated` event, written in the transaction of the change. */
export async function recordCheckoutUpdated(
  ctx: CheckoutViewContext,
  tx: Prisma.TransactionClient,
  row: CheckoutRow,
) {
  const data = await renderCheckout(ctx, row, tx);
  const at = row.modifiedAt ?? new Date();
  await recordEvent(tx, { organizationId: row.organizationId, type: 'checkout.updated', data, at });
  // Polar sends both for an expiry: `.updated` for every change, `.expired` for this one.
  if (row.status === 'expired') {
    await recordEvent(tx, { organizationId: row.organizationId, type: 'checkout.expired', data, at });
  }
}
