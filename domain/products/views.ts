import { customFieldView } from '../custom-fields/views.js';
import { benefitView } from '../benefits/views.js';
import { fileView } from '../files/views.js';
import { readMetadata } from '../metadata/rules.js';
import type { PriceRow, ProductRow } from './repository.js';
import { priceType } from '../prices/registry.js';
import { productPriceSchema, productSchema, type Product, type ProductPrice } from './schemas.js';

export function priceView(row: PriceRow): ProductPrice {
  return productPriceSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    is_archived: row.isArchived,
    product_id: row.productId,
    type: row.type,
    recurring_interval: row.recurringInterval,
    amount_type: row.amountType,
    ...priceType(row.amountType).view(row),
  });
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
