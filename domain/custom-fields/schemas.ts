import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import type { TextLimits } from '../platform/rules.js';
import { nameSchema, TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';

// Polar's CustomField as @polar-sh/sdk@0.33.2 reads it; spec §3 Custom field.

/** The values a buyer gave the custom fields, by slug: on a checkout, and the order and subscription it makes. */
export const customFieldValueSchema = z.union([z.string(), z.number().int(), z.boolean()]).nullable();
export const customFieldDataSchema = z.record(z.string(), customFieldValueSchema);

export const CUSTOM_FIELD_TYPES = ['checkbox', 'date', 'number', 'select', 'text'] as const;
export const customFieldTypeSchema = z.enum(CUSTOM_FIELD_TYPES);
export type CustomFieldType = z.infer<typeof customFieldTypeSchema>;

const bounds = { ge: z.number().int().optional(), le: z.number().int().optional() };

/**
 * The properties of each type, strict, with the texts made by `text`: what the SDK sends and
 * what is stored.
 */
function propertiesSchemasWith(text: (limits: TextLimits) => z.ZodType<string>) {
  const formProperties = {
    form_label: text({ max: TEXT_MAX_LENGTH.name, min: 1 }).optional(),
    form_help_text: text({ max: 1000, min: 1 }).optional(),
    form_placeholder: text({ max: TEXT_MAX_LENGTH.name, min: 1 }).optional(),
  };
  const selectOption = z.strictObject({
    value: text({ max: TEXT_MAX_LENGTH.name, min: 1 }),
    label: text({ max: TEXT_MAX_LENGTH.name, min: 1 }),
  });
  return {
    checkbox: z.strictObject({ ...formProperties }),
    date: z.strictObject({ ...formProperties, ...bounds }),
    number: z.strictObject({ ...formProperties, ...bounds }),
    select: z.strictObject({ ...formProperties, options: z.array(selectOption).min(1) }),
    text: z.strictObject({
      ...formProperties,
      textarea: z.boolean().optional(),
      min_length: z.number().int().min(0).optional(),
      max_length: z.number().int().min(0).optional(),
    }),
  } as const;
}

/** What a seller sends: every text follows the text rule. */
export const propertiesInputSchemas = propertiesSchemasWith(textSchema);
/** What answers carry: the properties as stored, so a value saved before a rule existed still reads. */
export const propertiesSchemas = propertiesSchemasWith(({ min = 0 }) => z.string().min(min));

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
  name: nameSchema(),
  organization_id: z.uuid().nullable().optional(),
};

export const customFieldCreateSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...createCommon,
    type: z.literal('checkbox'),
    properties: propertiesInputSchemas.checkbox,
  }),
  z.strictObject({ ...createCommon, type: z.literal('date'), properties: propertiesInputSchemas.date }),
  z.strictObject({ ...createCommon, type: z.literal('number'), properties: propertiesInputSchemas.number }),
  z.strictObject({ ...createCommon, type: z.literal('select'), properties: propertiesInputSchemas.select }),
  z.strictObject({ ...createCommon, type: z.literal('text'), properties: propertiesInputSchemas.text }),
]);

const updateCommon = {
  metadata: metadataInputSchema.optional(),
  slug: customFieldSlugSchema.nullable().optional(),
  name: nameSchema().nullable().optional(),
};

export const customFieldUpdateSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...updateCommon,
    type: z.literal('checkbox'),
    properties: propertiesInputSchemas.checkbox.nullish(),
  }),
  z.strictObject({
    ...updateCommon,
    type: z.literal('date'),
    properties: propertiesInputSchemas.date.nullish(),
  }),
  z.strictObject({
    ...updateCommon,
    type: z.literal('number'),
    properties: propertiesInputSchemas.number.nullish(),
  }),
  z.strictObject({
    ...updateCommon,
    type: z.literal('select'),
    properties: propertiesInputSchemas.select.nullish(),
  }),
  z.strictObject({
    ...updateCommon,
    type: z.literal('text'),
    properties: propertiesInputSchemas.text.nullish(),
  }),
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
