import { z } from 'zod';
import { QUERY_LIST_MAX_ITEMS, textSchema } from '../platform/schemas.js';

// Metadata of Polar's resources (spec §5: values are string, integer, number or boolean). The
// limits are the ones @polar-sh/sdk@0.33.2 documents on every `metadata` input; keys and string
// values follow the text rule (domain/platform/schemas.ts), since both are stored in jsonb, which
// refuses NUL and unpaired surrogates as PostgreSQL's text does.
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_STRING_MAX_LENGTH = 500;

const metadataKeySchema = textSchema({ min: 1, max: METADATA_KEY_MAX_LENGTH });
const metadataStringSchema = textSchema({ max: METADATA_STRING_MAX_LENGTH });

export const metadataValueSchema = z.union([metadataStringSchema, z.number().int(), z.number(), z.boolean()]);

/** A `metadata` input: checked key by key, so a 422 names the offending key. */
export const metadataInputSchema = z
  .record(metadataKeySchema, metadataValueSchema)
  .refine((metadata) => Object.keys(metadata).length <= METADATA_MAX_KEYS, {
    message: `At most ${METADATA_MAX_KEYS} metadata keys are allowed.`,
  });

/** What responses carry: whatever was stored, as the SDK reads it. */
export const metadataSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export type Metadata = z.infer<typeof metadataSchema>;

/**
 * `?metadata[key]=value` (deepObject) filters; Express's query parser hands them over as an object.
 * A value may repeat (any of them matches).
 */
export const metadataQuerySchema = z.record(
  metadataKeySchema,
  z.union([metadataStringSchema, z.array(metadataStringSchema).max(QUERY_LIST_MAX_ITEMS)]),
);
