// What each webhook event's `data` is, as a wire schema: the outbox records the unversioned shape
// once, and an endpoint of a dated version receives it as that version shows the resource
// (docs/api-versions.md). The table sits above every domain whose resource an event carries.
import { z } from 'zod';
import { benefitGrantWithBenefitSchema, benefitSchema } from '../domain/benefits/schemas.js';
import { checkoutSchema } from '../domain/checkouts/schemas.js';
import { customerSeatSchema } from '../domain/customer-seats/schemas.js';
import { customerStateSchema } from '../domain/customer-state/schemas.js';
import { customerSchema } from '../domain/customers/schemas.js';
import { discountSchema } from '../domain/discounts/schemas.js';
import { orderSchema } from '../domain/orders/schemas.js';
import { organizationSchema } from '../domain/organizations/schemas.js';
import { schemaForVersion, type ApiVersion } from '../domain/platform/api-versions.js';
import { productSchema } from '../domain/products/schemas.js';
import { refundSchema } from '../domain/refunds/schemas.js';
import { subscriptionSchema } from '../domain/subscriptions/schemas.js';
import type { WebhookEventType } from '../domain/webhook-outbox/schemas.js';
import type { WebhookDataRenderer } from '../domain/webhooks/rules.js';

/** A grant event carries the grant, its benefit and, for an update or a cycle, what it held before. */
const benefitGrantEventSchema = benefitGrantWithBenefitSchema.extend({
  previous_properties: z.record(z.string(), z.unknown()).nullable(),
});

/** The event types Tollgate sends; a type it does not send keeps its data as recorded. */
export const WEBHOOK_DATA_SCHEMAS: Partial<Record<WebhookEventType, z.ZodType>> = {
  'benefit.created': benefitSchema,
  'benefit.updated': benefitSchema,
  'benefit_grant.created': benefitGrantEventSchema,
  'benefit_grant.updated': benefitGrantEventSchema,
  'benefit_grant.revoked': benefitGrantEventSchema,
  'benefit_grant.cycled': benefitGrantEventSchema,
  'checkout.created': checkoutSchema,
  'checkout.updated': checkoutSchema,
  'checkout.expired': checkoutSchema,
  'discount.created': discountSchema,
  'discount.updated': discountSchema,
  'discount.deleted': discountSchema,
  'order.created': orderSchema,
  'order.updated': orderSchema,
  'order.paid': orderSchema,
  'order.refunded': orderSchema,
  'organization.updated': organizationSchema,
  'product.created': productSchema,
  'product.updated': productSchema,
  'refund.created': refundSchema,
  'refund.updated': refundSchema,
  'subscription.created': subscriptionSchema,
  'subscription.active': subscriptionSchema,
  'subscription.canceled': subscriptionSchema,
  'subscription.uncanceled': subscriptionSchema,
  'subscription.revoked': subscriptionSchema,
  'subscription.updated': subscriptionSchema,
  'subscription.cycled': subscriptionSchema,
  'subscription.past_due': subscriptionSchema,
  'subscription.paused': subscriptionSchema,
  'subscription.resumed': subscriptionSchema,
  'customer.created': customerSchema,
  'customer.updated': customerSchema,
  'customer.deleted': customerSchema,
  'customer.state_changed': customerStateSchema,
  'customer_seat.assigned': customerSeatSchema,
  'customer_seat.claimed': customerSeatSchema,
  'customer_seat.revoked': customerSeatSchema,
};

/**
 * `data` as `version` shows it. Only a schema that differs in the version is applied, so a payload
 * whose shape has nothing versioned is sent byte for byte as recorded. A payload its schema refuses
 * (recorded before a schema changed) is sent as recorded rather than holding back every later event.
 */
export const renderWebhookData: WebhookDataRenderer = (type, data, version: ApiVersion) => {
  const schema = WEBHOOK_DATA_SCHEMAS[type];
  if (!schema) return data;
  const versioned = schemaForVersion(schema, version);
  if (versioned === schema) return data;
  const rendered = versioned.safeParse(data);
  return rendered.success ? (rendered.data as Record<string, unknown>) : data;
};
