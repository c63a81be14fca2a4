import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationForWrite, organizationsToList } from '../access/service.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findLiveDiscount,
  insertDiscount,
  isDuplicateCode,
  listLiveDiscounts,
  replaceDiscountProducts,
  updateDiscountRow,
  type DiscountRow,
} from './repository.js';
import { mergeTerms, sameTerms, termsIssue } from './rules.js';
import type { Discount, DiscountCreate, DiscountListQuery, DiscountUpdate } from './schemas.js';
import { discountView, termsOf } from './views.js';
import { findProductIdsOfOrganization } from '../products/repository.js';
import { recordEvent } from '../webhook-outbox/repository.js';

async function checkProducts(db: Db, organizationId: string, productIds: string[]) {
  const found = new Set(
    (await findProductIdsOfOrganization(db, organizationId, productIds)).map((row) => row.id),
  );
  const missing = productIds.findIndex((id) => !found.has(id));
  if (missing >= 0) throw new InvalidFieldError(['body', 'products', missing], 'Product not found.');
}

function duplicateCode(error: unknown): never {
  if (isDuplicateCode(error)) {
    throw new InvalidFieldError(['body', 'code'], 'A discount with this code already exists.');
  }
  throw error;
}

export async function createDiscount(db: Db, caller: Caller, input: DiscountCreate): Promise<Discount> {
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  const productIds = [...new Set(input.products ?? [])];
  await checkProducts(db, organizationId, productIds);
  return db
    .$transaction(async (tx) => {
      const row = await insertDiscount(tx, {
        organizationId,
        name: input.name,
        type: input.type,
        amount: input.type === 'fixed' ? input.amount : null,
        currency: input.type === 'fixed' ? input.currency : null,
        basisPoints: input.type === 'percentage' ? input.basis_points : null,
        duration: input.duration,
        durationInMonths: input.duration === 'repeating' ? input.duration_in_months : null,
        code: input.code ?? null,
        startsAt: input.starts_at ? new Date(input.starts_at) : null,
        endsAt: input.ends_at ? new Date(input.ends_at) : null,
        maxRedemptions: input.max_redemptions ?? null,
        metadata: input.metadata ?? {},
      });
      if (productIds.length > 0) await replaceDiscountProducts(tx, row.id, productIds);
      const created =
        productIds.length === 0 ? discountView(row) : discountView((await findLiveDiscount(tx, row.id))!);
      await recordDiscountEvent(tx, 'discount.created', created);
      return created;
    })
    .catch(duplicateCode);
}

const SORT_COLUMNS = {
  created_at: 'createdAt',
  name: 'name',
  code: 'code',
  redemptions_count: 'redemptionsCount',
} as const;

export async function listDiscounts(db: Db, caller: Caller, query: DiscountListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.DiscountWhereInput = { organizationId: { in: organizationIds } };
  if (query.query) {
    where.OR = [
      { name: { contains: query.query, mode: 'insensitive' } },
      { code: { contains: query.query, mode: 'insensitive' } },
    ];
  }
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await listLiveDiscounts(db, where, orderBy, pageToSkipTake(query));
  return paginated(rows.map(discountView), total, query);
}

export async function findDiscountFor(db: Db, caller: Caller, id: string): Promise<DiscountRow> {
  const row = await findLiveDiscount(db, id);
  const visible = row && (await organizationsToList(db, caller, undefined)).includes(row.organizationId);
  if (!row || !visible) throw new AppError('ResourceNotFound', 'Discount not found');
  return row;
}

export async function updateDiscount(
  db: Db,
  caller: Caller,
  id: string,
  input: DiscountUpdate,
): Promise<Discount> {
  const current = await findDiscountFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);

  const before = termsOf(current);
  const after = mergeTerms(before, {
    type: input.type ?? undefined,
    amount: input.amount ?? undefined,
    currency: input.currency ?? undefined,
    basisPoints: input.basis_points ?? undefined,
    duration: input.duration ?? undefined,
    durationInMonths: input.duration_in_months ?? undefined,
  });
  const issue = termsIssue(after);
  if (issue) throw new InvalidFieldError(['body', issue[0]], issue[1]);
  // Buyers who redeemed it were promised these terms.
  if (current.redemptionsCount > 0 && !sameTerms(before, after)) {
    throw new InvalidFieldError(
      ['body'],
      'The value and duration of a discount that was redeemed cannot change.',
    );
  }
  const startsAt =
    input.starts_at === undefined ? current.startsAt : input.starts_at ? new Date(input.starts_at) : null;
  const endsAt =
    input.ends_at === undefined ? current.endsAt : input.ends_at ? new Date(input.ends_at) : null;
  if (startsAt && endsAt && startsAt >= endsAt) {
    throw new InvalidFieldError(['body', 'ends_at'], 'ends_at must be after starts_at.');
  }
  if (input.max_redemptions && input.max_redemptions < current.redemptionsCount) {
    throw new InvalidFieldError(
      ['body', 'max_redemptions'],
      `The discount was already redeemed ${current.redemptionsCount} times.`,
    );
  }
  const productIds = input.products === undefined ? undefined : [...new Set(input.products ?? [])];
  if (productIds) await checkProducts(db, current.organizationId, productIds);

  return db
    .$transaction(async (tx) => {
      if (productIds) await replaceDiscountProducts(tx, id, productIds);
      const row = await updateDiscountRow(tx, id, {
        ...(input.name ? { name: input.name } : {}),
        ...(input.code !== undefined ? { code: input.code } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        ...(input.max_redemptions !== undefined ? { maxRedemptions: input.max_redemptions } : {}),
        startsAt,
        endsAt,
        type: after.type,
        amount: after.amount,
        currency: after.currency,
        basisPoints: after.basisPoints,
        duration: after.duration,
        durationInMonths: after.durationInMonths,
      });
      const updated = discountView(row);
      await recordDiscountEvent(tx, 'discount.updated', updated);
      return updated;
    })
    .catch(duplicateCode);
}

/** Deleting hides the discount and frees its code; orders that used it keep pointing at it. */
export async function deleteDiscount(db: Db, caller: Caller, id: string): Promise<void> {
  const current = await findDiscountFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  await db.$transaction(async (tx) => {
    const row = await updateDiscountRow(tx, id, { deletedAt: new Date() });
    await recordDiscountEvent(tx, 'discount.deleted', discountView(row));
  });
}

/** The discount as the API shows it, in the transaction that changed it (Polar's discount.* events). */
async function recordDiscountEvent(
  tx: Prisma.TransactionClient,
  type: 'discount.created' | 'discount.updated' | 'discount.deleted',
  discount: Discount,
) {
  await recordEvent(tx, {
    organizationId: discount.organization_id,
    type,
    data: discount as unknown as Prisma.InputJsonValue,
    at: new Date(discount.modified_at ?? discount.created_at),
  });
}
