import { z } from 'zod';
import { addressInputSchema, addressSchema } from '../addresses/schemas.js';
import { metadataInputSchema, metadataQuerySchema, metadataSchema } from '../metadata/schemas.js';
import {
  emailAddressSchema,
  offUntilBuilt,
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../platform/schemas.js';

// Polar's Customer as @polar-sh/sdk@0.33.2 reads it (spec §3 Customer); its state is in
// customer-state/schemas.ts.

export const TAX_ID_FORMATS = [
  'ad_nrt',
  'ae_trn',
  'ar_cuit',
  'au_abn',
  'au_arn',
  'bg_uic',
  'bh_vat',
  'bo_tin',
  'br_cnpj',
  'br_cpf',
  'ca_bn',
  'ca_gst_hst',
  'ca_pst_bc',
  'ca_pst_mb',
  'ca_pst_sk',
  'ca_qst',
  'ch_uid',
  'ch_vat',
  'cl_tin',
  'cn_tin',
  'co_nit',
  'cr_tin',
  'de_stn',
  'do_rcn',
  'ec_ruc',
  'eg_tin',
  'es_cif',
  'eu_oss_vat',
  'eu_vat',
  'gb_vat',
  'ge_vat',
  'hk_br',
  'hr_oib',
  'hu_tin',
  'id_npwp',
  'il_vat',
  'in_gst',
  'is_vat',
  'jp_cn',
  'jp_rn',
  'jp_trn',
  'ke_pin',
  'kr_brn',
  'kz_bin',
  'li_uid',
  'mx_rfc',
  'my_frp',
  'my_itn',
  'my_sst',
  'ng_tin',
  'no_vat',
  'no_voec',
  'nz_gst',
  'om_vat',
  'pe_ruc',
  'ph_tin',
  'ro_tin',
  'rs_pib',
  'ru_inn',
  'ru_kpp',
  'sa_vat',
  'sg_gst',
  'sg_uen',
  'si_tin',
  'sv_nit',
  'th_vat',
  'tr_tin',
  'tw_vat',
  'ua_vat',
  'us_ein',
  'uy_ruc',
  've_rif',
  'vn_tin',
  'za_vat',
] as const;
export const taxIdFormatSchema = z.enum(TAX_ID_FORMATS);

/** `[value, format]`, as Polar stores a validated tax id. */
export const taxIdSchema = z.tuple([z.string(), taxIdFormatSchema]);
/**
 * `[value, format]` as @polar-sh/sdk@0.33.2 sends it, or the number alone as 0.48.1 does: its format
 * is then the one the number fits (the EU's VAT first for an EU billing address).
 */
const taxIdInputSchema = z.union([
  z.tuple([textSchema({ max: 64 }), taxIdFormatSchema]),
  textSchema({ max: 64, min: 1 }),
]);

/** Customers are people; team customers (with members and seats) are not built yet. */
export const CUSTOMER_TYPES = ['individual'] as const;

export const customerSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  metadata: metadataSchema,
  external_id: z.string().nullable(),
  email: z.string(),
  email_verified: z.boolean(),
  name: z.string().nullable(),
  billing_name: z.string().nullable(),
  billing_address: addressSchema.nullable(),
  tax_id: taxIdSchema.nullable(),
  organization_id: z.uuid(),
  deleted_at: z.iso.datetime({ offset: true }).nullable(),
  /** The earliest timestamp of the customer's ingested events. */
  first_user_event_at: z.iso.datetime({ offset: true }).nullable(),
  avatar_url: z.string(),
  type: z.enum(CUSTOMER_TYPES),
});

const emailSchema = emailAddressSchema().transform((email) => email.toLowerCase());

const customerFields = {
  metadata: metadataInputSchema.optional(),
  name: textSchema({ max: TEXT_MAX_LENGTH.name, trim: true }).nullable().optional(),
  billing_address: addressInputSchema.nullable().optional(),
  tax_id: taxIdInputSchema.nullable().optional(),
  locale: offUntilBuilt(textSchema({ max: 10 }), [], 'A customer locale'),
};

const customerTypeInputSchema = offUntilBuilt(
  z.enum(['individual', 'team']),
  ['individual'],
  'Team customers',
);

export const customerCreateSchema = z.strictObject({
  ...customerFields,
  email: emailSchema,
  external_id: textSchema({ max: 255, min: 1, trim: true }).nullable().optional(),
  organization_id: z.uuid().nullable().optional(),
  type: customerTypeInputSchema,
  owner: offUntilBuilt(z.record(textSchema({ max: 64 }), z.unknown()), [], 'Team customers'),
});

export const customerUpdateSchema = z.strictObject({
  ...customerFields,
  email: emailSchema.nullable().optional(),
  external_id: textSchema({ max: 255, min: 1, trim: true }).nullable().optional(),
  type: customerTypeInputSchema,
});

/** By external id, the external id is the address: it cannot change there. */
export const customerUpdateExternalSchema = customerUpdateSchema.omit({ external_id: true, type: true });

export const customerSortFields = ['created_at', '-created_at', 'email', '-email', 'name', '-name'] as const;

export const customerListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  email: textSchema({ max: 320 }).optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  sorting: sortingSchema(customerSortFields),
  metadata: metadataQuerySchema.optional(),
});

export const customerIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });
export const customerExternalIdParamsSchema = z.object({ external_id: textSchema({ max: 255, min: 1 }) });

export type Customer = z.infer<typeof customerSchema>;
export type CustomerCreate = z.infer<typeof customerCreateSchema>;
export type CustomerUpdate = z.infer<typeof customerUpdateSchema>;
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

/** The filters of the list, without its page: what a CSV export of the list takes. */
export const customerExportQuerySchema = customerListQuerySchema.omit({ page: true, limit: true });
export type CustomerExportQuery = z.infer<typeof customerExportQuerySchema>;

/** An amount of one currency, in its minor units. */
const currencyAmountSchema = z.object({ currency: z.string(), amount: z.number().int() });

/** What a customer brought in and holds (our extension). */
export const customerSummarySchema = z.object({
  customer_id: z.uuid(),
  orders_count: z.number().int().min(0),
  /** Orders that were paid (refunded ones included). */
  paid_orders_count: z.number().int().min(0),
  first_order_at: z.iso.datetime({ offset: true }).nullable(),
  last_order_at: z.iso.datetime({ offset: true }).nullable(),
  /** Net amounts of paid orders less what was refunded of them, per currency, excluding tax. */
  lifetime_value: z.array(currencyAmountSchema),
  active_subscriptions_count: z.number().int().min(0),
  subscriptions_count: z.number().int().min(0),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

export const CUSTOMER_TIMELINE_ENTRY_TYPES = [
  'customer_created',
  'order',
  'refund',
  'subscription_started',
  'subscription_changed',
  'subscription_canceled',
  'subscription_ended',
  'benefit_granted',
  'benefit_revoked',
] as const;

/** One thing that happened to a customer (our extension): newest first on the customer's page. */
export const customerTimelineEntrySchema = z.object({
  type: z.enum(CUSTOMER_TIMELINE_ENTRY_TYPES),
  at: z.iso.datetime({ offset: true }),
  /** An order's or a refund's status. */
  status: z.string().nullable(),
  /** An order's total or a refund's amount, in minor units of `currency`. */
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  /**
   * What it concerns, by name as it was then: the product bought or subscribed to (a plan change's
   * new product), the benefit granted.
   */
  reference: z.string().nullable(),
  order_id: z.uuid().nullable(),
  subscription_id: z.uuid().nullable(),
  /** A plan change's product before the change. */
  previous_reference: z.string().nullable(),
  /** A cancellation that takes effect later: when the plan ends (the period's end). */
  ends_at: z.iso.datetime({ offset: true }).nullable(),
});
export type CustomerTimelineEntry = z.infer<typeof customerTimelineEntrySchema>;

export const customerTimelineSchema = z.object({
  customer_id: z.uuid(),
  items: z.array(customerTimelineEntrySchema),
});
export type CustomerTimeline = z.infer<typeof customerTimelineSchema>;
