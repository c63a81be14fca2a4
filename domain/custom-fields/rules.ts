import type { z } from 'zod';
import { hasControlCharacters, isWellFormedText, TEXT_MESSAGES } from '../platform/rules.js';
import { TEXT_MAX_LENGTH } from '../platform/schemas.js';
import type { CustomFieldProperties, CustomFieldType, propertiesSchemas } from './schemas.js';

export type PropertyIssue = { path: string[]; message: string };

/**
 * Bounds that contradict each other would make the field impossible to fill in at checkout:
 * ge ≤ le (date, number), min_length ≤ max_length (text), select option values unique.
 */
export function propertiesIssues(properties: CustomFieldProperties): PropertyIssue[] {
  const issues: PropertyIssue[] = [];
  if (
    'ge' in properties &&
    properties.ge !== undefined &&
    properties.le !== undefined &&
    properties.ge > properties.le
  ) {
    issues.push({ path: ['ge'], message: 'ge must be less than or equal to le.' });
  }
  if (
    'min_length' in properties &&
    properties.min_length !== undefined &&
    properties.max_length !== undefined &&
    properties.min_length > properties.max_length
  ) {
    issues.push({ path: ['min_length'], message: 'min_length must be less than or equal to max_length.' });
  }
  if ('options' in properties) {
    const values = properties.options.map((option) => option.value);
    if (new Set(values).size !== values.length) {
      issues.push({ path: ['options'], message: 'Option values must be unique.' });
    }
  }
  return issues;
}

// ── Custom field data (checkout `custom_field_data`) ────────────────────────────────────────────

/** pydantic's lax booleans: the words Polar takes for a checkbox given as text. */
const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/**
 * A value typed as text (a checkout link's URL) as `validateCustomFieldData` expects it: a
 * checkbox's yes/no words become booleans; numbers and dates are read from text already, and
 * anything else stays text for the validation to refuse.
 */
export function customFieldValueFromText(type: CustomFieldType, text: string): string | boolean {
  if (type !== 'checkbox') return text;
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return text;
}

type FieldOf<T extends CustomFieldType> = {
  slug: string;
  name: string;
  type: T;
  properties: z.infer<(typeof propertiesSchemas)[T]>;
};

/** A field attached to a product, as the checkout sees it; the wire `CustomField` fits `field`. */
export type AttachedFieldRule = {
  field: { [T in CustomFieldType]: FieldOf<T> }[CustomFieldType];
  required: boolean;
};

export type CustomFieldValue = string | number | boolean | null;
export type CustomFieldIssue = { loc: (string | number)[]; msg: string; type: string };

export type CustomFieldDataResult = {
  /** Every attached slug: its normalised value, null when absent (false for a checkbox). */
  value: Record<string, CustomFieldValue>;
  issues: CustomFieldIssue[];
};

type Check = { value: CustomFieldValue } | { issue: Omit<CustomFieldIssue, 'loc'> };

const LOC = ['body', 'custom_field_data'];

/**
 * Validates buyer input against the product's attached fields. Polar checks required fields only
 * when the checkout is confirmed, so an open checkout can be saved half-filled:
 * `validateRequired: false` lets required fields be absent (and a required checkbox unticked).
 * Blank strings count as absent. Unknown slugs are refused. The messages and `type`s are
 * pydantic's, which Polar answers with.
 */
export function validateCustomFieldData(
  attached: readonly AttachedFieldRule[],
  data: Readonly<Record<string, unknown>> | null | undefined,
  options: { validateRequired?: boolean } = {},
): CustomFieldDataResult {
  const validateRequired = options.validateRequired ?? true;
  const input = data ?? {};
  const value: Record<string, CustomFieldValue> = {};
  const issues: CustomFieldIssue[] = [];
  const slugs = new Set<string>();
  for (const { field, required } of attached) {
    slugs.add(field.slug);
    const raw = input[field.slug];
    const isAbsent = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
    const isRequired = required && validateRequired;
    let check: Check;
    if (isAbsent) {
      check = isRequired
        ? { issue: { msg: 'Field required', type: 'missing' } }
        : { value: field.type === 'checkbox' ? false : null };
    } else {
      check = checkValue(field, raw, isRequired);
    }
    if ('issue' in check) issues.push({ loc: [...LOC, field.slug], ...check.issue });
    else value[field.slug] = check.value;
  }
  for (const slug of Object.keys(input)) {
    if (!slugs.has(slug)) {
      issues.push({ loc: [...LOC, slug], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
    }
  }
  return { value, issues };
}

function checkValue(field: AttachedFieldRule['field'], raw: unknown, isRequired: boolean): Check {
  switch (field.type) {
    case 'text':
      return checkText(raw, field.properties);
    case 'number':
      return checkNumber(raw, field.properties);
    case 'date':
      return checkDate(raw, field.properties);
    case 'select':
      return checkSelect(raw, field.properties);
    case 'checkbox':
      if (typeof raw !== 'boolean')
        return { issue: { msg: 'Input should be a valid boolean', type: 'bool_type' } };
      // Polar types a required checkbox as Literal[True]: ticking it is the point (terms, consent).
      if (isRequired && !raw) return { issue: { msg: 'Input should be True', type: 'literal_error' } };
      return { value: raw };
  }
}

const characters = (count: number) => `${count} character${count === 1 ? '' : 's'}`;

function checkText(raw: unknown, properties: FieldOf<'text'>['properties']): Check {
  if (typeof raw !== 'string')
    return { issue: { msg: 'Input should be a valid string', type: 'string_type' } };
  const text = raw.trim();
  // The text rule of every other field (domain/platform/schemas.ts): the value is stored in jsonb.
  if (hasControlCharacters(text))
    return { issue: { msg: TEXT_MESSAGES.controlCharacters, type: 'value_error' } };
  if (!isWellFormedText(text)) return { issue: { msg: TEXT_MESSAGES.malformedUnicode, type: 'value_error' } };
  // Code points, as Python counts them: an emoji is one character, not two UTF-16 units.
  const length = [...text].length;
  // A field without max_length still takes no more than a description.
  const maxLength = properties.max_length ?? TEXT_MAX_LENGTH.description;
  if (properties.min_length !== undefined && length < properties.min_length) {
    return {
      issue: {
        msg: `String should have at least ${characters(properties.min_length)}`,
        type: 'string_too_short',
      },
    };
  }
  if (length > maxLength) {
    return {
      issue: {
        msg: `String should have at most ${characters(maxLength)}`,
        type: 'string_too_long',
      },
    };
  }
  return { value: text };
}

function checkNumber(raw: unknown, properties: FieldOf<'number'>['properties']): Check {
  let number: number;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw))
      return { issue: { msg: 'Input should be a finite number', type: 'finite_number' } };
    if (!Number.isInteger(raw)) {
      return {
        issue: {
          msg: 'Input should be a valid integer, got a number with a fractional part',
          type: 'int_from_float',
        },
      };
    }
    number = raw;
  } else if (typeof raw === 'string') {
    // Form posts send numbers as text; pydantic's lax mode takes integer strings too.
    if (!/^[+-]?\d+$/.test(raw.trim())) {
      return {
        issue: {
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          type: 'int_parsing',
        },
      };
    }
    number = Number(raw.trim());
  } else {
    return { issue: { msg: 'Input should be a valid integer', type: 'int_type' } };
  }
  if (!Number.isSafeInteger(number)) {
    return { issue: { msg: 'Input should be a valid integer', type: 'int_type' } };
  }
  if (properties.ge !== undefined && number < properties.ge) {
    return {
      issue: { msg: `Input should be greater than or equal to ${properties.ge}`, type: 'greater_than_equal' },
    };
  }
  if (properties.le !== undefined && number > properties.le) {
    return {
      issue: { msg: `Input should be less than or equal to ${properties.le}`, type: 'less_than_equal' },
    };
  }
  return { value: number };
}

const DATETIME =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))?$/i;

/** The calendar date of an ISO date or date-time as written (the buyer's own day), or null. */
function calendarDate(text: string): string | null {
  const datetime = DATETIME.exec(text);
  const date = datetime ? datetime[1] : text;
  if (datetime) {
    const [, , hours, minutes, seconds, offsetHours, offsetMinutes] = datetime;
    if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds ?? 0) > 59) return null;
    if (Number(offsetHours ?? 0) > 23 || Number(offsetMinutes ?? 0) > 59) return null;
  }
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? '');
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  const isRealDay =
    utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
  return isRealDay && year >= 1 ? `${parts[1]}-${parts[2]}-${parts[3]}` : null;
}

/** Date bounds are Unix timestamps in seconds (Polar); they bound the UTC day they fall on. */
const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

function checkDate(raw: unknown, properties: FieldOf<'date'>['properties']): Check {
  const date = typeof raw === 'string' ? calendarDate(raw.trim()) : null;
  if (date === null) {
    return { issue: { msg: 'Input should be a valid date in the format YYYY-MM-DD', type: 'date_parsing' } };
  }
  // ISO dates of the same width compare as strings.
  if (properties.ge !== undefined && date < dayOf(properties.ge)) {
    return {
      issue: {
        msg: `Input should be greater than or equal to ${dayOf(properties.ge)}`,
        type: 'greater_than_equal',
      },
    };
  }
  if (properties.le !== undefined && date > dayOf(properties.le)) {
    return {
      issue: {
        msg: `Input should be less than or equal to ${dayOf(properties.le)}`,
        type: 'less_than_equal',
      },
    };
  }
  return { value: date };
}

function checkSelect(raw: unknown, properties: FieldOf<'select'>['properties']): Check {
  const values = properties.options.map((option) => option.value);
  if (typeof raw === 'string' && values.includes(raw)) return { value: raw };
  const quoted = values.map((value) => `'${value}'`);
  const expected = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0];
  return { issue: { msg: `Input should be ${expected}`, type: 'literal_error' } };
}
