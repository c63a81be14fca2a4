import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';

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

export const filterSchema: z.ZodType<Filter> = z.strictObject({
  conjunction: filterConjunctionSchema,
  get clauses() {
    return z.array(z.union([filterClauseSchema, filterSchema]));
  },
});

export const PROPERTY_AGGREGATION_FUNCTIONS = ['sum', 'max', 'min', 'avg'] as const;

export const aggregationSchema = z.discriminatedUnion('func', [
  z.strictObject({ func: z.literal('count') }),
  z.strictObject({ func: z.enum(PROPERTY_AGGREGATION_FUNCTIONS), property: z.string().min(1) }),
]);

export type Aggregation = z.infer<typeof aggregationSchema>;

export const meterSchema = z.object({
  metadata: metadataSchema,
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  filter: filterSchema,
  aggregation: aggregationSchema,
  organization_id: z.uuid(),
});

export type Meter = z.infer<typeof meterSchema>;

const meterName = z.string().trim().min(3);

export const meterCreateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: meterName,
  filter: filterSchema,
  aggregation: aggregationSchema,
  organization_id: z.uuid().nullable().optional(),
});

export const meterUpdateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: meterName.nullable().optional(),
  filter: filterSchema.nullable().optional(),
  aggregation: aggregationSchema.nullable().optional(),
});

export type MeterCreate = z.infer<typeof meterCreateSchema>;
export type MeterUpdate = z.infer<typeof meterUpdateSchema>;

export const meterSortFields = ['created_at', '-created_at', 'name', '-name'] as const;
