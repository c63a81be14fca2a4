import { readMetadata } from '../metadata/rules.js';
import type { DiscountRow } from './repository.js';
import type { DiscountTerms } from './rules.js';
import { discountSchema, type Discount, type DiscountDuration, type DiscountType } from './schemas.js';

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function termsOf(row: Omit<DiscountRow, 'products'>): DiscountTerms {
  return {
    type: row.type as DiscountType,
    amount: row.amount,
    currency: row.currency,
    basisPoints: row.basisPoints,
    duration: row.duration as DiscountDuration,
    durationInMonths: row.durationInMonths,
  };
}

export function discountView(row: DiscountRow): Discount {
  const terms = termsOf(row);
  return discountSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: iso(row.modifiedAt),
    id: row.id,
    metadata: readMetadata(row.metadata),
    name: row.name,
    code: row.code,
    starts_at: iso(row.startsAt),
    ends_at: iso(row.endsAt),
    max_redemptions: row.maxRedemptions,
    max_redemptions_per_customer: null,
    redemptions_count: row.redemptionsCount,
    organization_id: row.organizationId,
    type: terms.type,
    duration: terms.duration,
    ...(terms.duration === 'repeating' ? { duration_in_months: terms.durationInMonths } : {}),
    ...(terms.type === 'fixed'
      ? {
          amount: terms.amount,
          currency: terms.currency,
          amounts: terms.currency === null ? undefined : { [terms.currency]: terms.amount },
        }
      : { basis_points: terms.basisPoints }),
    products: row.products.map(({ product }) => ({
      metadata: readMetadata(product.metadata),
      created_at: product.createdAt.toISOString(),
      modified_at: iso(product.modifiedAt),
      id: product.id,
      name: product.name,
      description: product.description,
      recurring_interval: product.recurringInterval,
      is_recurring: product.recurringInterval !== null,
      is_archived: product.isArchived,
      organization_id: product.organizationId,
    })),
  });
}
