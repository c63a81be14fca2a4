import { customFieldView } from '../custom-fields/views.js';
import { benefitView } from '../benefits/views.js';
import { fileView } from '../files/views.js';
import { readMetadata } from '../metadata/rules.js';
import type { PriceRow, ProductRow } from './repository.js';
import { normalizeUnitAmount, type AmountType } from './rules.js';
import { productPriceSchema, productSchema, type Product, type ProductPrice } from './schemas.js';

export function priceView(row: PriceRow): ProductPrice {
  const common = {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    is_archived: row.isArchived,
    product_id: row.productId,
    type: row.type,
    recurring_interval: row.recurringInterval,
    amount_type: row.amountType,
  };
  switch (row.amountType as AmountType) {
    case 'free':
      return productPriceSchema.parse(common);
    case 'fixed':
      return productPriceSchema.parse({
        ...common,
        price_currency: row.priceCurrency,
        price_amount: row.priceAmount,
      });
    case 'custom':
      return productPriceSchema.parse({
        ...common,
        price_currency: row.priceCurrency,
        minimum_amount: row.minimumAmount,
        maximum_amount: row.maximumAmount,
        preset_amount: row.presetAmount,
      });
    case 'metered_unit':
      return productPriceSchema.parse({
        ...common,
        price_currency: row.priceCurrency,
        unit_amount: normalizeUnitAmount(row.unitAmount?.toFixed() ?? '') ?? row.unitAmount?.toFixed(),
        cap_amount: row.capAmount,
        meter_id: row.meterId,
        meter: row.meter,
      });
  }
}

export function productView(row: ProductRow, publicUrl: string): Product {
  return productSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    name: row.name,
    description: row.description,
    recurring_interval: row.recurringInterval,
    is_recurring: row.recurringInterval !== null,
    is_archived: row.isArchived,
    organization_id: row.organizationId,
    metadata: readMetadata(row.metadata),
    prices: row.prices.map(priceView),
    benefits: row.benefits.map((link) => benefitView(link.benefit)),
    medias: row.medias.map((media) => fileView(media.file, publicUrl)),
    attached_custom_fields: row.customFields.map((attached) => ({
      custom_field_id: attached.customFieldId,
      custom_field: customFieldView(attached.customField),
      order: attached.order,
      required: attached.required,
    })),
  });
}
