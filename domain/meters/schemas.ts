import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { nameSchema, offUntilBuilt, TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';

// Polar's Meter as @polar-sh/sdk@0.33.2 reads it; spec §3 Meter, §4 filter enumerations.

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const;
export const filterOperatorSchema = z.enum(FILTER_OPERATORS);
export const filterConjunctionSchema = z.enum(['and', 'or']);

export const filterClauseSchema = z.strictObject({
  property: z.string().min(1),
  operator: filterOperatorSchema,
  value: z.union([z.string(), z.number().int(), z.boolean()]),
});

export type FilterClause = z.infer<typeof filterClauseSchema>;
export type Filter = { conjunction: 'and' | 'or'; clauses: (FilterClause | Filter)[] };

/** A filter as stored and answered. */
export const filterSchema: z.ZodType<Filter> = z
  .strictObject({
    conjunction: filterConjunctionSchema,
    get clauses() {
      return z.array(z.union([filterClauseSchema, filterSchema]));
    },
  })
  // Named, as the OpenAPI document refers to it (it contains itself).
  .meta({ id: 'MeterFilter' });

const propertyNameSchema = textSchema({ max: TEXT_MAX_LENGTH.name, min: 1 });

/** A filter a seller sends: its texts follow the text rule. */
export const filterInputSchema: z.ZodType<Filter> = z
  .strictObject({
    conjunction: filterConjunctionSchema,
    get clauses() {
      return z.array(
        z.union([
          z.strictObject({
            property: propertyNameSchema,
            operator: filterOperatorSchema,
            value: z.union([textSchema({ max: 1000 }), z.number().int(), z.boolean()]),
          }),
          filterInputSchema,
        ]),
      );
    },
  })
  .meta({ id: 'MeterFilterInput' });

export const PROPERTY_AGGREGATION_FUNCTIONS = ['sum', 'max', 'min', 'avg'] as const;

export const aggregationSchema = z.discriminatedUnion('func', [
  z.strictObject({ func: z.literal('count') }),
  z.strictObject({ func: z.enum(PROPERTY_AGGREGATION_FUNCTIONS), property: z.string().min(1) }),
]);

const aggregationInputSchema = z.discriminatedUnion('func', [
  z.strictObject({ func: z.literal('count') }),
  z.strictObject({ func: z.enum(PROPERTY_AGGREGATION_FUNCTIONS), property: propertyNameSchema }),
]);

export type Aggregation = z.infer<typeof aggregationSchema>;

export const METER_UNITS = ['scalar', 'token', 'custom'] as const;

/** Fields of @polar-sh/sdk@0.48.1's meter create and update whose features are not built yet. */
const meterNotYetFields = {
  unit: offUntilBuilt(z.enum(METER_UNITS), ['scalar'], 'Meter display units'),
  custom_label: offUntilBuilt(textSchema({ max: TEXT_MAX_LENGTH.name }), [], 'Meter display units'),
  custom_multiplier: offUntilBuilt(z.number().int(), [], 'Meter display units'),
};

export const meterSchema = z.object({
  metadata: metadataSchema,
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  filter: filterSchema,
  aggregation: aggregationSchema,
  organization_id: z.uuid(),
  /** How the dashboard labels the units: plain numbers until display units are built. */
  unit: z.enum(METER_UNITS),
});

export type Meter = z.infer<typeof meterSchema>;

const meterName = nameSchema(TEXT_MAX_LENGTH.name, 3);

export const meterCreateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: meterName,
  filter: filterInputSchema,
  aggregation: aggregationInputSchema,
  organization_id: z.uuid().nullable().optional(),
  ...meterNotYetFields,
});

export const meterUpdateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: meterName.nullable().optional(),
  filter: filterInputSchema.nullable().optional(),
  aggregation: aggregationInputSchema.nullable().optional(),
  ...meterNotYetFields,
  is_archived: offUntilBuilt(z.boolean(), [false], 'Archiving meters'),
});

export type MeterCreate = z.infer<typeof meterCreateSchema>;
export type MeterUpdate = z.infer<typeof meterUpdateSchema>;

export const meterSortFields = ['created_at', '-created_at', 'name', '-name'] as const;
