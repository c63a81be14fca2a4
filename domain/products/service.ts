import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationForWrite,
  organizationsToList,
} from '../access/service.js';
import { findCustomFieldsOfOrganization } from '../custom-fields/repository.js';
import type { AttachedCustomFieldCreate } from '../custom-fields/schemas.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { findFilesOfOrganization } from '../files/repository.js';
import { findMetersOfOrganization } from '../meters/repository.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { trialColumns, trialInputIssues, type TrialInput } from './trials.js';
import { meterCycleColumns, meterCycleInputIssues } from './meter-cycles.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import {
  archivePricesExcept,
  findCurrentPrices,
  findPrice,
  findProduct,
  findProductsByIds,
  insertPrices,
  insertProduct,
  listProductIds,
  lockProduct,
  replaceBenefits,
  replaceAttachedCustomFields,
  replaceMedias,
  updateProductRow,
  type ProductSort,
  findProductOwners,
  deleteProductRow,
  purchaserIdsOfProduct,
  subscriberIdsOfProduct,
} from './repository.js';
import { priceType } from '../prices/registry.js';
import type { PriceIssue } from '../prices/strategy.js';
import { priceSetIssues } from './rules.js';
import type {
  PriceCreate,
  Product,
  ProductCreate,
  ProductPrice,
  ProductUpdate,
  RecurringInterval,
} from './schemas.js';
import { isProductDeletable, priceView, productView } from './views.js';
import { findSelectableBenefitIds } from '../benefits/repository.js';
import { markBenefitGrantsStale } from '../customers/repository.js';

export type ProductsContext = { db: Db; publicUrl: string };

const invalid = (issues: PriceIssue[]) =>
  new InvalidInputError(
    issues.map((issue) => ({ loc: ['body', ...issue.loc], msg: issue.message, type: 'value_error' })),
  );

/** Prices to create, checked beyond their schema: bounds, and meters of the product's organization. */
async function checkNewPrices(
  db: Db | Prisma.TransactionClient,
  organizationId: string,
  prices: { price: PriceCreate; index: number }[],
) {
  const issues: PriceIssue[] = prices.flatMap(({ price, index }) =>
    priceType(price.amount_type)
      .issues(price)
      .map((issue) => ({ ...issue, loc: ['prices', index, ...issue.loc] })),
  );
  const metered = prices.flatMap(({ price, index }) => {
    const meterId = priceType(price.amount_type).meterId(price);
    return meterId === null ? [] : [{ meterId, index }];
  });
  if (metered.length > 0) {
    const found = new Set(
      (
        await findMetersOfOrganization(
          db,
          organizationId,
          metered.map((entry) => entry.meterId),
        )
      ).map((meter) => meter.id),
    );
    for (const { meterId, index } of metered) {
      if (!found.has(meterId))
        issues.push({ loc: ['prices', index, 'meter_id'], message: 'Meter not found.' });
    }
  }
  if (issues.length > 0) throw invalid(issues);
}

function priceRows(
  prices: PriceCreate[],
  product: { id: string; organizationId: string; recurringInterval: string | null },
  at: Date,
): Prisma.ProductPriceCreateManyInput[] {
  // Prices are listed by creation time; one millisecond apart keeps the order they were given in.
  return prices.map((price, index) => {
    const { tierTable, ...columns } = priceType(price.amount_type).columns(price);
    return {
      createdAt: new Date(at.getTime() + index),
      organizationId: product.organizationId,
      productId: product.id,
      amountType: price.amount_type,
      type: product.recurringInterval ? 'recurring' : 'one_time',
      recurringInterval: product.recurringInterval,
      ...columns,
      // A JSON column's SQL NULL is spelled out: a plain null would be the JSON value null.
      tierTable: tierTable ?? Prisma.DbNull,
    };
  });
}

/** Media must be uploaded product_media files of the product's organization (Polar's rule). */
async function checkMedias(db: Db, organizationId: string, fileIds: string[]) {
  const files = new Map(
    (await findFilesOfOrganization(db, organizationId, fileIds)).map((file) => [file.id, file]),
  );
  const issues: PriceIssue[] = [];
  const seen = new Set<string>();
  for (const [index, id] of fileIds.entries()) {
    const file = files.get(id);
    if (seen.has(id)) issues.push({ loc: ['medias', index], message: 'This file is listed twice.' });
    else if (!file) issues.push({ loc: ['medias', index], message: 'File not found.' });
    else if (file.service !== 'product_media') {
      issues.push({ loc: ['medias', index], message: 'Only product_media files can be product media.' });
    } else if (!file.isUploaded)
      issues.push({ loc: ['medias', index], message: 'This file is not uploaded yet.' });
    seen.add(id);
  }
  if (issues.length > 0) throw invalid(issues);
}

async function checkCustomFields(db: Db, organizationId: string, fields: AttachedCustomFieldCreate[]) {
  const ids = fields.map((field) => field.custom_field_id);
  const found = new Set(
    (await findCustomFieldsOfOrganization(db, organizationId, ids)).map((field) => field.id),
  );
  const issues: PriceIssue[] = [];
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    const loc = ['attached_custom_fields', index, 'custom_field_id'];
    if (seen.has(id)) issues.push({ loc, message: 'This custom field is attached twice.' });
    else if (!found.has(id)) issues.push({ loc, message: 'Custom field not found.' });
    seen.add(id);
  }
  if (issues.length > 0) throw invalid(issues);
}

const attachedRows = (fields: AttachedCustomFieldCreate[]) =>
  fields.map((field) => ({ customFieldId: field.custom_field_id, required: field.required }));

async function readProduct(tx: Prisma.TransactionClient, id: string, organizationId: string) {
  const row = await findProduct(tx, id, [organizationId]);
  if (!row) throw new Error(`product ${id} vanished inside its own transaction`);
  return row;
}

/** The count a new product stores: 1 unless given on a recurring product; none on a one-time one. */
function intervalCountOf(
  interval: RecurringInterval | null,
  count: number | null | undefined,
): number | null {
  if (interval === null) {
    if (count != null) {
      throw new InvalidFieldError(
        ['body', 'recurring_interval_count'],
        "One-time products don't have a recurring interval count.",
      );
    }
    return null;
  }
  return count ?? 1;
}

export async function createProduct(
  ctx: ProductsContext,
  caller: Caller,
  input: ProductCreate,
): Promise<Product> {
  const { db } = ctx;
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  const recurringIntervalCount = intervalCountOf(input.recurring_interval, input.recurring_interval_count);
  const setIssues = priceSetIssues(input.prices, input.recurring_interval);
  assertTrialInput(input, input.recurring_interval);
  const meterIssues = meterCycleInputIssues(input, {
    interval: input.recurring_interval,
    count: recurringIntervalCount,
  });
  if (meterIssues.length > 0) throw new InvalidInputError(meterIssues);
  if (setIssues.length > 0)
    throw invalid(setIssues.map((issue) => ({ ...issue, loc: ['prices', ...issue.loc] })));
  await checkNewPrices(
    db,
    organizationId,
    input.prices.map((price, index) => ({ price, index })),
  );
  if (input.medias) await checkMedias(db, organizationId, input.medias);
  if (input.attached_custom_fields) await checkCustomFields(db, organizationId, input.attached_custom_fields);

  const now = new Date();
  return db.$transaction(async (tx) => {
    const product = await insertProduct(tx, {
      organizationId,
      name: input.name,
      description: input.description ?? null,
      recurringInterval: input.recurring_interval,
      recurringIntervalCount,
      ...trialColumns(input),
      ...meterCycleColumns(input),
      pauseKeepsBenefits: input.pause_keeps_benefits ?? false,
      metadata: input.metadata ?? {},
      createdAt: now,
    });
    await insertPrices(tx, priceRows(input.prices, product, now));
    if (input.medias) await replaceMedias(tx, product.id, input.medias);
    if (input.attached_custom_fields) {
      await replaceAttachedCustomFields(tx, product.id, attachedRows(input.attached_custom_fields));
    }
    const created = productView(await readProduct(tx, product.id, organizationId), ctx.publicUrl);
    await recordEvent(tx, { organizationId, type: 'product.created', data: created, at: now });
    return created;
  });
}

export async function updateProduct(
  ctx: ProductsContext,
  caller: Caller,
  id: string,
  input: ProductUpdate,
): Promise<Product> {
  const { db } = ctx;
  const existing = await findProduct(db, id, await accessibleOrganizationIds(db, caller));
  if (!existing) throw new AppError('ResourceNotFound', 'Product not found');
  const { organizationId } = existing;
  await assertCanManage(db, caller, organizationId, ORGANIZATION_MANAGERS);
  // Polar lets only legacy products (none in Tollgate) set it; subscriptions rely on it not changing.
  if (input.recurring_interval !== undefined && input.recurring_interval !== existing.recurringInterval) {
    throw new InvalidFieldError(
      ['body', 'recurring_interval'],
      'The recurring interval of a product cannot change.',
    );
  }
  // Polar: once set, the count cannot change either (a subscription's periods are counted with it).
  if (
    input.recurring_interval_count != null &&
    input.recurring_interval_count !== (existing.recurringIntervalCount ?? 1)
  ) {
    throw new InvalidFieldError(
      ['body', 'recurring_interval_count'],
      'The recurring interval count of a product cannot change.',
    );
  }
  assertTrialInput(input, existing.recurringInterval);
  const newPrices = (input.prices ?? []).flatMap((price, index) => ('id' in price ? [] : [{ price, index }]));
  await checkNewPrices(db, organizationId, newPrices);
  if (input.medias) await checkMedias(db, organizationId, input.medias);
  if (input.attached_custom_fields) await checkCustomFields(db, organizationId, input.attached_custom_fields);

  const now = new Date();
  return db.$transaction(async (tx) => {
    await lockProduct(tx, id);
    if (input.prices) {
      const current = new Map((await findCurrentPrices(tx, id)).map((price) => [price.id, price]));
      const kept = new Set<string>();
      const issues: PriceIssue[] = [];
      const resulting = input.prices.map((price, index) => {
        if (!('id' in price)) return { amount_type: price.amount_type };
        const row = current.get(price.id);
        if (!row)
          issues.push({
            loc: ['prices', index, 'id'],
            message: 'This price is not a current price of the product.',
          });
        else if (kept.has(price.id))
          issues.push({ loc: ['prices', index, 'id'], message: 'This price is listed twice.' });
        kept.add(price.id);
        return { amount_type: row?.amountType ?? 'free' };
      });
      if (issues.length > 0) throw invalid(issues);
      const setIssues = priceSetIssues(resulting, existing.recurringInterval as RecurringInterval | null);
      if (setIssues.length > 0)
        throw invalid(setIssues.map((issue) => ({ ...issue, loc: ['prices', ...issue.loc] })));
      await archivePricesExcept(tx, id, [...kept], now);
      await insertPrices(
        tx,
        priceRows(
          newPrices.map(({ price }) => price as PriceCreate),
          existing,
          now,
        ),
      );
    }
    if (input.medias) await replaceMedias(tx, id, input.medias);
    if (input.attached_custom_fields) {
      await replaceAttachedCustomFields(tx, id, attachedRows(input.attached_custom_fields));
    }
    await updateProductRow(tx, id, organizationId, {
      ...(input.name ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      ...(typeof input.is_archived === 'boolean' ? { isArchived: input.is_archived } : {}),
      ...trialColumns(input),
      ...(typeof input.pause_keeps_benefits === 'boolean'
        ? { pauseKeepsBenefits: input.pause_keeps_benefits }
        : {}),
      modifiedAt: now,
    });
    const updated = productView(await readProduct(tx, id, organizationId), ctx.publicUrl);
    await recordEvent(tx, { organizationId, type: 'product.updated', data: updated, at: now });
    return updated;
  });
}

/**
 * Polar's `products.delete`: a product nothing refers to is deleted (204); one in use answers 409
 * `ProductNotDeletable` and stays, to be archived instead. Read under the product's lock, so a
 * checkout started meanwhile either comes first (and refuses the delete) or finds no product.
 */
export async function deleteProduct(ctx: ProductsContext, caller: Caller, id: string): Promise<void> {
  const { db } = ctx;
  const existing = await findProduct(db, id, await accessibleOrganizationIds(db, caller));
  if (!existing) throw new AppError('ResourceNotFound', 'Product not found');
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  await db.$transaction(async (tx) => {
    await lockProduct(tx, id);
    const current = await findProduct(tx, id, [existing.organizationId]);
    if (!current) throw new AppError('ResourceNotFound', 'Product not found');
    if (!isProductDeletable(current)) {
      throw new AppError(
        'ProductNotDeletable',
        'This product has orders, subscriptions, checkouts, discounts or checkout links: archive it instead.',
      );
    }
    await deleteProductRow(tx, id);
  });
}

export async function getProduct(ctx: ProductsContext, caller: Caller, id: string): Promise<Product> {
  const row = await findProduct(ctx.db, id, await accessibleOrganizationIds(ctx.db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Product not found');
  return productView(row, ctx.publicUrl);
}

/**
 * A price by id, archived or not: what was sold at a price that a product update archived stays
 * readable (orders and subscriptions point at it).
 */
export async function getProductPrice(db: Db, caller: Caller, id: string): Promise<ProductPrice> {
  const row = await findPrice(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Price not found');
  return priceView(row);
}

export async function listProducts(
  ctx: ProductsContext,
  caller: Caller,
  query: PageQuery & {
    id?: string | string[];
    organization_id?: string | string[];
    query?: string;
    is_archived?: boolean;
    is_recurring?: boolean;
    benefit_id?: string | string[];
    sorting?: string[];
  },
) {
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  const sorting = parseSorting<ProductSort['field']>(query.sorting ?? ['-created_at']);
  const [ids, total] = await listProductIds(
    ctx.db,
    {
      organizationIds,
      ids: query.id === undefined ? undefined : [query.id].flat(),
      query: query.query,
      benefitIds: query.benefit_id === undefined ? undefined : [query.benefit_id].flat(),
      isArchived: query.is_archived,
      isRecurring: query.is_recurring,
    },
    sorting,
    pageToSkipTake(query),
  );
  const rows = new Map((await findProductsByIds(ctx.db, ids)).map((row) => [row.id, row]));
  const items = ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [productView(row, ctx.publicUrl)] : [];
  });
  return paginated(items, total, query);
}

/**
 * Sets the benefits a product gives, in the order given. They must be live, selectable benefits
 * of the product's organization.
 */
export async function updateProductBenefits(
  ctx: ProductsContext,
  caller: Caller,
  id: string,
  benefitIds: string[],
): Promise<Product> {
  const { db } = ctx;
  const existing = await findProduct(db, id, await accessibleOrganizationIds(db, caller));
  if (!existing) throw new AppError('ResourceNotFound', 'Product not found');
  const { organizationId } = existing;
  await assertCanManage(db, caller, organizationId, ORGANIZATION_MANAGERS);
  const duplicate = benefitIds.findIndex((benefitId, index) => benefitIds.indexOf(benefitId) !== index);
  if (duplicate >= 0)
    throw new InvalidFieldError(['body', 'benefits', duplicate], 'This benefit is listed twice.');
  const usable = new Set(await findSelectableBenefitIds(db, organizationId, benefitIds));
  const missing = benefitIds.findIndex((benefitId) => !usable.has(benefitId));
  if (missing >= 0) throw new InvalidFieldError(['body', 'benefits', missing], 'Benefit not found.');

  const now = new Date();
  return db.$transaction(async (tx) => {
    await lockProduct(tx, id);
    await replaceBenefits(tx, id, benefitIds);
    await updateProductRow(tx, id, organizationId, { modifiedAt: now });
    // Everyone who bought it gains the new benefits and loses the removed ones; the rest of what
    // they hold (a meter's balance, a key) is untouched.
    await markBenefitGrantsStale(tx, [
      ...(await purchaserIdsOfProduct(tx, id)),
      ...(await subscriberIdsOfProduct(tx, id)),
    ]);
    const updated = productView(await readProduct(tx, id, organizationId), ctx.publicUrl);
    await recordEvent(tx, { organizationId, type: 'product.updated', data: updated, at: now });
    return updated;
  });
}

/**
 * Products to sell together (a checkout link's, a checkout's): current products of one
 * organization the caller manages, each listed once. That organization owns what sells them;
 * a product the caller cannot see is 'Product not found.' at `loc`.
 */
export async function resolveProductsToSell(
  db: Db,
  caller: Caller,
  productIds: string[],
  loc: (string | number)[],
): Promise<{ organizationId: string; productIds: string[] }> {
  const repeated = productIds.findIndex((id, index) => productIds.indexOf(id) !== index);
  if (repeated >= 0) throw new InvalidFieldError([...loc, repeated], 'This product is listed twice.');
  const visible = await accessibleOrganizationIds(db, caller);
  const rows = await findProductOwners(db, productIds, visible);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const organizationId = byId.get(productIds[0] ?? '')?.organizationId;
  const bad = productIds.findIndex((id) => {
    const row = byId.get(id);
    return !row || row.isArchived || row.organizationId !== organizationId;
  });
  if (bad >= 0 || !organizationId) {
    throw new InvalidFieldError(
      productIds.length === 1 ? loc : [...loc, Math.max(bad, 0)],
      'Product not found.',
    );
  }
  await assertCanManage(db, caller, organizationId, ORGANIZATION_MANAGERS);
  return { organizationId, productIds };
}

/**
 * A trial is set as a unit and a count together, and only on a recurring product: a one-time
 * purchase has no first period to defer.
 */
function assertTrialInput(input: TrialInput, recurringInterval: string | null): void {
  const issues = trialInputIssues(input);
  if (issues.length === 0 && recurringInterval === null && trialColumns(input)?.trialInterval) {
    issues.push({
      loc: ['body', 'trial_interval'],
      msg: 'Only a recurring product can have a trial.',
      type: 'value_error',
    });
  }
  if (issues.length > 0) throw new InvalidInputError(issues);
}
