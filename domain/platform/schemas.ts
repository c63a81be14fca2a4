import { z } from 'zod';
import {
  characterCount,
  hasControlCharacters,
  isWellFormedText,
  isWithinEmailLimits,
  TEXT_MESSAGES,
  WITHOUT_CONTROL_CHARACTERS,
  type TextLimits,
} from './rules.js';

// ── Text ────────────────────────────────────────────────────────────────────────────────────────
// Every text field a caller sends, in a body, a query string or a path, follows one rule: no
// control characters but tab and line breaks, well-formed Unicode, and a maximum length of its own.
// PostgreSQL stores neither NUL nor an unpaired surrogate, and a value of a few thousand characters
// no longer fits a btree index row: each was a 500 before the rule, and is now a 422 naming the
// field. Lengths count characters (code points), as Polar and PostgreSQL do; the OpenAPI document
// shows each field's `maxLength` and the control-character `pattern`.

/** The usual maximums; a field with a limit of its own (Polar's, or a column's) states it instead. */
export const TEXT_MAX_LENGTH = {
  /** Names, labels, titles, comments, search terms: one line of a page or an invoice. */
  name: 256,
  /** Descriptions, notes, answers: a few paragraphs. */
  description: 10_000,
  /** URLs: what browsers and proxies reliably carry. */
  url: 2048,
} as const;

/** The length part of the rule, with issues zod names like its own (`too_big`, `too_small`). */
function checkLength(text: string, ctx: z.RefinementCtx, { max, min = 0 }: TextLimits): void {
  const count = characterCount(text);
  if (count > max) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: max,
      inclusive: true,
      input: text,
      message: TEXT_MESSAGES.tooLong(max),
    });
  } else if (count < min) {
    ctx.addIssue({
      code: 'too_small',
      origin: 'string',
      minimum: min,
      inclusive: true,
      input: text,
      message: TEXT_MESSAGES.tooShort(min),
    });
  }
}

function checkUnicode(text: string, ctx: z.RefinementCtx): void {
  if (!isWellFormedText(text)) {
    ctx.addIssue({
      code: 'invalid_format',
      format: 'unicode',
      input: text,
      message: TEXT_MESSAGES.malformedUnicode,
    });
  }
}

/** JSON Schema's view of the length checks, which zod cannot derive from a refinement. */
const lengthKeywords = ({ max, min = 0 }: TextLimits) => ({
  maxLength: max,
  ...(min > 0 ? { minLength: min } : {}),
});

export type TextOptions = TextLimits & {
  /** Strip surrounding whitespace before checking (names, labels); off for opaque values. */
  trim?: boolean;
};

/**
 * A text field: no control characters (tab, line feed and carriage return allowed), valid Unicode,
 * `min`..`max` characters. Complete as returned: add `.nullable()` / `.optional()` around it, not
 * checks after it (a later check would drop the documented lengths).
 */
export function textSchema({ trim = false, ...limits }: TextOptions) {
  return (trim ? z.string().trim() : z.string())
    .regex(WITHOUT_CONTROL_CHARACTERS, TEXT_MESSAGES.controlCharacters)
    .superRefine(checkUnicode)
    .superRefine((text, ctx) => checkLength(text, ctx, limits))
    .meta(lengthKeywords(limits));
}

/** A name or label: trimmed, not empty, at most `max` characters. */
export const nameSchema = (max: number = TEXT_MAX_LENGTH.name, min = 1) =>
  textSchema({ max, min, trim: true });

/**
 * The text rule on a string with a format of its own (a URL): checked by refinements, so the
 * document keeps the format rather than the control-character pattern.
 */
export function withTextRule<T extends z.ZodString | z.ZodStringFormat>(schema: T, limits: TextLimits): T {
  return schema
    .refine((text: string) => !hasControlCharacters(text), TEXT_MESSAGES.controlCharacters)
    .superRefine(checkUnicode)
    .superRefine((text: string, ctx) => checkLength(text, ctx, limits))
    .meta(lengthKeywords(limits)) as T;
}

/**
 * Pages past this one hold nothing for any list here; the bound keeps the offset (page − 1) × limit
 * inside the 32-bit integer Prisma takes for it (a page of 2^53 answered 500).
 */
const MAX_PAGE = 1_000_000;

/** An email address: zod's pattern (the document's `email` format) within SMTP's length limits. */
export function emailAddressSchema(message?: string) {
  return z
    .email(message === undefined ? undefined : { message })
    .max(320)
    .refine(
      isWithinEmailLimits,
      'Too long for an email address (64 characters before the @, 63 per domain label).',
    );
}

/** Polar's list query: 1-based `page`, `limit` up to 100. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * Express's query parser reads at most 20 repeats of a parameter as a list (qs's `arrayLimit`);
 * more arrive as an object that no filter takes. Lists are bounded to match, so the document says so.
 */
export const QUERY_LIST_MAX_ITEMS = 20;

/** A query parameter that may repeat (`?status=open&status=expired`): one value arrives as a string. */
export function queryListSchema<T extends z.ZodType>(item: T) {
  return z
    .union([item, z.array(item).max(QUERY_LIST_MAX_ITEMS)])
    .transform((value): z.output<T>[] => (Array.isArray(value) ? value : [value]));
}

/** `sorting` may repeat in the query string (`?sorting=a&sorting=-b`). */
export function sortingSchema<const T extends readonly [string, ...string[]]>(fields: T) {
  return queryListSchema(z.enum(fields)).optional();
}

export function listResourceSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    pagination: z.object({ total_count: z.number().int().min(0), max_page: z.number().int().min(0) }),
  });
}

/** Query filters Polar takes as one value or several (`?organization_id=a&organization_id=b`). */
export const oneOrManyUuids = queryListSchema(z.uuid());

/** `/{id}` path parameters, with the message Polar's API gives for a malformed id. */
export const idParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });

// ── Amounts and percentages ─────────────────────────────────────────────────────────────────────
// Money travels in whole minor units and percentages in whole basis points (spec §5). A value with
// more precision than that (10.999 dollars sent as 1099.9 cents, 12.345 % as 1234.5) is refused at
// its field, never rounded: the caller meant an amount the currency cannot hold.

const MINOR_UNITS_MESSAGE =
  'Expected a whole number of minor units of the currency (cents: 1099 for $10.99); an amount with more decimals than the currency has is refused, not rounded.';
const BASIS_POINTS_MESSAGE =
  'Expected a whole number of basis points (hundredths of a percent: 1250 for 12.5%); a percentage with more than two decimals is refused, not rounded.';

/** An amount in minor units of its currency: a whole number. */
export const minorUnitsSchema = () =>
  z.number({ error: MINOR_UNITS_MESSAGE }).int({ error: MINOR_UNITS_MESSAGE });

/** A percentage in basis points (1 = 0.01 %): a whole number. */
export const basisPointsSchema = () =>
  z.number({ error: BASIS_POINTS_MESSAGE }).int({ error: BASIS_POINTS_MESSAGE });

/** The `type` of a 422 issue refusing a value whose feature Tollgate does not build yet. */
export const NOT_AVAILABLE_YET = 'feature_not_available';

/**
 * A field of Polar's current API (@polar-sh/sdk@0.48.1) whose feature Tollgate does not build yet.
 * Its "off" values (and null, and its absence) are accepted, so the SDK's defaults go through; any
 * other value is a 422 on that field saying that `feature` is not available yet.
 */
export function offUntilBuilt<T extends z.ZodType>(schema: T, off: readonly z.output<T>[], feature: string) {
  const offValues = off.map(canonicalJson);
  const accepted = [...off.map((each) => JSON.stringify(each)), 'null'].join(' or ');
  return schema
    .nullable()
    .optional()
    .superRefine((value, ctx) => {
      if (value === null || value === undefined || offValues.includes(canonicalJson(value))) return;
      ctx.addIssue({
        code: 'custom',
        message: `${feature} is not available yet.`,
        params: { type: NOT_AVAILABLE_YET },
      });
    })
    .meta({ description: `${feature} is not available yet: accepted only as ${accepted}.` });
}

/** JSON with every object's keys sorted, so that equal settings compare equal in any key order. */
function canonicalJson(value: unknown): string {
  const sorted = (each: unknown): unknown =>
    Array.isArray(each)
      ? each.map(sorted)
      : each !== null && typeof each === 'object'
        ? Object.fromEntries(
            Object.entries(each)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([key, inner]) => [key, sorted(inner)]),
          )
        : each;
  return JSON.stringify(sorted(value));
}

/**
 * A field of Polar's current API that only ever asks for a feature Tollgate does not build yet (a
 * seat count, a moved billing period): any value is a 422 on that field saying so.
 */
export function refusedUntilBuilt<T extends z.ZodType>(schema: T, feature: string) {
  return schema
    .superRefine((_value, ctx) => {
      ctx.addIssue({
        code: 'custom',
        message: `${feature} is not available yet.`,
        params: { type: NOT_AVAILABLE_YET },
      });
    })
    .meta({ description: `${feature} is not available yet: any value is refused.` });
}
