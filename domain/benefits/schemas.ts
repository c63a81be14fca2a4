import { z } from 'zod';
import { customerSchema } from '../customers/schemas.js';
import { downloadableFileSchema } from '../files/schemas.js';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import {
  nameSchema,
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../platform/schemas.js';

// Polar's benefits as @polar-sh/sdk@0.33.2 reads them (spec §3 Benefit, Benefit grant).

export const BENEFIT_TYPES = [
  'custom',
  'discord',
  'github_repository',
  'downloadables',
  'license_keys',
  'meter_credit',
] as const;
export const benefitTypeSchema = z.enum(BENEFIT_TYPES);
export type BenefitType = z.infer<typeof benefitTypeSchema>;

/** Discord ids are snowflakes: 17 to 20 digits. */
const snowflake = z.string().regex(/^[0-9]{17,20}$/, 'Expected a Discord id (17 to 20 digits).');

export const githubPermissionSchema = z.enum(['pull', 'triage', 'push', 'maintain', 'admin']);
export const timeframeSchema = z.enum(['year', 'month', 'day']);

const licenseKeyExpirationSchema = z.strictObject({
  ttl: z.number().int().min(1).max(1000),
  timeframe: timeframeSchema,
});
const licenseKeyActivationSchema = z.strictObject({
  limit: z.number().int().min(1).max(50),
  enable_customer_admin: z.boolean(),
});

/** What a seller may set, per type. */
export const benefitPropertiesInput = {
  custom: z.strictObject({ note: textSchema({ max: TEXT_MAX_LENGTH.description }).nullable().optional() }),
  // Tollgate has no Discord bot OAuth of its own: the guild token is the id of the server the
  // seller's bot was added to.
  discord: z.strictObject({
    guild_token: snowflake,
    role_id: snowflake,
    // Polar's later API has it; @polar-sh/sdk 0.33.2 does not send it (our extension there).
    kick_member: z
      .boolean()
      .optional()
      .meta({ description: 'On revoke, remove the member from the server rather than only the role.' }),
  }),
  github_repository: z.strictObject({
    repository_owner: z
      .string()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/, 'Not a GitHub user or organization name.'),
    repository_name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, 'Not a GitHub repository name.')
      .refine((name) => name !== '.' && name !== '..', 'Not a GitHub repository name.'),
    permission: githubPermissionSchema,
  }),
  downloadables: z.strictObject({
    archived: z.record(z.uuid(), z.boolean()).optional(),
    files: z.array(z.uuid()).min(1).max(100),
  }),
  license_keys: z.strictObject({
    prefix: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,16}$/, 'Up to 16 letters, digits, dashes or underscores.')
      .nullable()
      .optional(),
    expires: licenseKeyExpirationSchema.nullable().optional(),
    activations: licenseKeyActivationSchema.nullable().optional(),
    limit_usage: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  }),
  meter_credit: z.strictObject({
    units: z.number().int().min(1).max(2_147_483_647),
    rollover: z.boolean(),
    meter_id: z.uuid(),
  }),
} as const satisfies Record<BenefitType, z.ZodType>;

/** What a benefit answers, per type. */
const benefitPropertiesOutput = {
  custom: z.object({ note: z.string().nullable() }),
  discord: z.object({
    guild_id: z.string(),
    role_id: z.string(),
    guild_token: z.string(),
    kick_member: z.boolean().default(false),
  }),
  github_repository: z.object({
    repository_owner: z.string(),
    repository_name: z.string(),
    permission: githubPermissionSchema,
  }),
  downloadables: z.object({ archived: z.record(z.string(), z.boolean()), files: z.array(z.uuid()) }),
  license_keys: z.object({
    prefix: z.string().nullable(),
    expires: z.object({ ttl: z.number().int(), timeframe: timeframeSchema }).nullable(),
    activations: z.object({ limit: z.number().int(), enable_customer_admin: z.boolean() }).nullable(),
    limit_usage: z.number().int().nullable(),
  }),
  meter_credit: z.object({ units: z.number().int(), rollover: z.boolean(), meter_id: z.uuid() }),
} as const;

const benefitBase = {
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  /** A deleted benefit still shows where a product or an order kept it. */
  is_deleted: z.boolean(),
  organization_id: z.uuid(),
  metadata: metadataSchema,
  /** Every benefit shows in the customer portal: hiding one is not built. */
  visibility: z.enum(['draft', 'private', 'public']),
  visibility_configurable: z.boolean(),
};

export type Benefit = {
  id: string;
  created_at: string;
  modified_at: string | null;
  type: BenefitType;
  description: string;
  selectable: boolean;
  deletable: boolean;
  is_deleted: boolean;
  organization_id: string;
  metadata: z.infer<typeof metadataSchema>;
  visibility: 'draft' | 'private' | 'public';
  visibility_configurable: boolean;
  properties: Record<string, z.infer<ReturnType<typeof z.json>>>;
};

// Built per type; the declared type says what every variant shares.
export const benefitSchema = z.discriminatedUnion(
  'type',
  BENEFIT_TYPES.map((type) =>
    z.object({ ...benefitBase, type: z.literal(type), properties: benefitPropertiesOutput[type] }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<Benefit>;

const description = nameSchema(42, 3);

export const benefitCreateSchema = z.discriminatedUnion(
  'type',
  BENEFIT_TYPES.map((type) =>
    z.strictObject({
      type: z.literal(type),
      description,
      metadata: metadataInputSchema.optional(),
      organization_id: z.uuid().nullable().optional(),
      properties: benefitPropertiesInput[type],
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<BenefitCreate>;
export type BenefitCreate = {
  type: BenefitType;
  description: string;
  metadata?: z.infer<typeof metadataSchema>;
  organization_id?: string | null;
  properties: Record<string, unknown>;
};

/** An update names the benefit's type (it cannot change) and may replace its properties. */
export const benefitUpdateSchema = z.discriminatedUnion(
  'type',
  BENEFIT_TYPES.map((type) =>
    z.strictObject({
      type: z.literal(type),
      description: description.nullable().optional(),
      metadata: metadataInputSchema.optional(),
      properties: benefitPropertiesInput[type].nullable().optional(),
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<BenefitUpdate>;
export type BenefitUpdate = {
  type: BenefitType;
  description?: string | null;
  metadata?: z.infer<typeof metadataSchema>;
  properties?: Record<string, unknown> | null;
};

export const benefitSortFields = ['created_at', '-created_at', 'description', '-description'] as const;

export const benefitListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  // The SDK's `typeFilter` travels as `type`.
  type: queryListSchema(benefitTypeSchema).optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  sorting: sortingSchema(benefitSortFields),
  // Polar lists grants only per benefit: a customer's page finds which benefits to ask about here.
  customer_id: oneOrManyUuids.optional().meta({
    description:
      'Tollgate extension: only the benefits these customers have a grant of (granted, revoked, waiting or failing).',
    'x-tollgate': true,
  }),
});
export type BenefitListQuery = z.infer<typeof benefitListQuerySchema>;

export const benefitIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });

export const benefitGrantListQuerySchema = pageQuerySchema.extend({
  is_granted: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  customer_id: oneOrManyUuids.optional(),
});
export type BenefitGrantListQuery = z.infer<typeof benefitGrantListQuerySchema>;

export const benefitGrantSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  granted_at: z.iso.datetime({ offset: true }).nullable(),
  is_granted: z.boolean(),
  revoked_at: z.iso.datetime({ offset: true }).nullable(),
  is_revoked: z.boolean(),
  subscription_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  customer_id: z.uuid(),
  benefit_id: z.uuid(),
  error: z.object({ message: z.string(), type: z.string(), timestamp: z.string() }).nullable(),
  customer: customerSchema,
  properties: z.record(z.string(), z.json()),
});
export type BenefitGrant = z.infer<typeof benefitGrantSchema>;

/** A grant as a benefit's list answers it: with the benefit (@polar-sh/sdk@0.48.1 requires it). */
export const benefitGrantWithBenefitSchema = benefitGrantSchema.extend({ benefit: benefitSchema });
export type BenefitGrantWithBenefit = z.infer<typeof benefitGrantWithBenefitSchema>;

export const benefitGrantSortFields = [
  'created_at',
  '-created_at',
  'granted_at',
  '-granted_at',
  'revoked_at',
  '-revoked_at',
] as const;

/** A downloadables benefit's file with what its holders did with it (Polar's `benefits:files`). */
export const benefitDownloadableFileSchema = downloadableFileSchema.extend({
  /** Distinct customers who downloaded it at least once. */
  downloaders: z.number().int(),
  downloads: z.number().int(),
});
export type BenefitDownloadableFile = z.infer<typeof benefitDownloadableFileSchema>;

/** The seller's grants across every benefit (Polar's `benefit-grants:list`). */
export const organizationBenefitGrantListQuerySchema = benefitGrantListQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  external_customer_id: queryListSchema(textSchema({ min: 1, max: 256 })).optional(),
  sorting: sortingSchema(benefitGrantSortFields),
});
export type OrganizationBenefitGrantListQuery = z.infer<typeof organizationBenefitGrantListQuerySchema>;
