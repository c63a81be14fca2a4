import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';

// Polar's CustomField as @polar-sh/sdk@0.33.2 reads it; spec §3 Custom field.

export const CUSTOM_FIELD_TYPES = ['checkbox', 'date', 'number', 'select', 'text'] as const;
export const customFieldTypeSchema = z.enum(CUSTOM_FIELD_TYPES);
export type CustomFieldType = z.infer<typeof customFieldTypeSchema>;

const formProperties = {
  form_label: z.string().min(1).optional(),
  form_help_text: z.string().min(1).optional(),
  form_placeholder: z.string().min(1).optional(),
};
const bounds = { ge: z.number().int().optional(), le: z.number().int().optional() };

export const selectOptionSchema = z.strictObject({ value: z.string().min(1), label: z.string().min(1) });

/** The properties of each type, strict: what the SDK sends and what is stored. */
export const propertiesSchemas = {
  checkbox: z.strictObject({ ...formProperties }),
  date: z.strictObject({ ...formProperties, ...bounds }),
  number: z.strictObject({ ...formProperties, ...bounds }),
  select: z.strictObject({ ...formProperties, options: z.array(selectOptionSchema).min(1) }),
  text: z.strictObject({
    ...formProperties,
    textarea: z.boolean().optional(),
    min_length: z.number().int().min(0).optional(),
    max_length: z.number().int().min(0).optional(),
  }),
} as const;

export type CustomFieldProperties = z.infer<(typeof propertiesSchemas)[CustomFieldType]>;

const common = {
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  metadata: metadataSchema,
  slug: z.string(),
  name: z.string(),
  organization_id: z.uuid(),
};

export const customFieldSchema = z.discriminatedUnion('type', [
  z.object({ ...common, type: z.literal('checkbox'), properties: propertiesSchemas.checkbox }),
  z.object({ ...common, type: z.literal('date'), properties: propertiesSchemas.date }),
  z.object({ ...common, type: z.literal('number'), properties: propertiesSchemas.number }),
  z.object({ ...common, type: z.literal('select'), properties: propertiesSchemas.select }),
  z.object({ ...common, type: z.literal('text'), properties: propertiesSchemas.text }),
]);

export type CustomField = z.infer<typeof customFieldSchema>;

/** Keys the stored values of the field: ASCII letters, digits and hyphens (Polar's rule). */
export const customFieldSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+$/, 'The slug may contain only ASCII letters, numbers and hyphens.');

const createCommon = {
  metadata: metadataInputSchema.optional(),
  slug: customFieldSlugSchema,
  name: z.string().trim().min(1),
  organization_id: z.uuid().nullable().optional(),
};

export const customFieldCreateSchema = z.discriminatedUnion('type', [
  z.strictObject({ ...createCommon, type: z.literal('checkbox'), properties: propertiesSchemas.checkbox }),
  z.strictObject({ ...createCommon, type: z.literal('date'), properties: propertiesSchemas.date }),
  z.strictObject({ ...createCommon, type: z.literal('number'), properties: propertiesSchemas.number }),
  z.strictObject({ ...createCommon, type: z.literal('select'), properties: propertiesSchemas.select }),
  z.strictObject({ ...createCommon, type: z.literal('text'), properties: propertiesSchemas.text }),
]);

const updateCommon = {
  metadata: metadataInputSchema.optional(),
  slug: customFieldSlugSchema.nullable().optional(),
  name: z.string().trim().min(1).nullable().optional(),
};

export const customFieldUpdateSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...updateCommon,
    type: z.literal('checkbox'),
    properties: propertiesSchemas.checkbox.nullish(),
  }),
  z.strictObject({ ...updateCommon, type: z.literal('date'), properties: propertiesSchemas.date.nullish() }),
  z.strictObject({
    ...updateCommon,
    type: z.literal('number'),
    properties: propertiesSchemas.number.nullish(),
  }),
  z.strictObject({
    ...updateCommon,
    type: z.literal('select'),
    properties: propertiesSchemas.select.nullish(),
  }),
  z.strictObject({ ...updateCommon, type: z.literal('text'), properties: propertiesSchemas.text.nullish() }),
]);

export type CustomFieldCreate = z.infer<typeof customFieldCreateSchema>;
export type CustomFieldUpdate = z.infer<typeof customFieldUpdateSchema>;

export const customFieldSortFields = [
  'created_at',
  '-created_at',
  'slug',
  '-slug',
  'name',
  '-name',
  'type',
  '-type',
] as const;

/** A field attached to a product (spec §3 Attached custom field). */
export const attachedCustomFieldSchema = z.object({
  custom_field_id: z.uuid(),
  custom_field: customFieldSchema,
  order: z.number().int(),
  required: z.boolean(),
});

export const attachedCustomFieldCreateSchema = z.strictObject({
  custom_field_id: z.uuid(),
  required: z.boolean(),
});

export type AttachedCustomField = z.infer<typeof attachedCustomFieldSchema>;
export type AttachedCustomFieldCreate = z.infer<typeof attachedCustomFieldCreateSchema>;
