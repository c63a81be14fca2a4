import type { Aggregation, Filter, FilterClause } from '../meters/schemas.js';
import type { EventInput, TimeInterval } from './schemas.js';

/**
 * How far ahead of our clock an event may be dated: a seller's server clock runs a little ahead
 * of ours now and then, and refusing its events for that would lose usage. Polar refuses any.
 */
export const MAX_CLOCK_SKEW_MS = 60_000;

/** The longest range each bucket size answers, in days (Polar's caps). */
export const MAX_RANGE_DAYS: Record<TimeInterval, number> = {
  hour: 7,
  day: 366,
  week: 365,
  month: 1460,
  year: 3650,
};

/**
 * Events the platform writes (`source` system) that move customer meters: a credit of `units` to
 * the meter `meter_id`, and the start of a new window for it (a cycle's reset).
 */
export const SYSTEM_EVENT_NAMES = { meterCredited: 'meter.credited', meterReset: 'meter.reset' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export type IngestIssue = { index: number; field: string | null; message: string };

/** What the schema cannot say about one event of an ingest (its customer, its time). */
export function eventInputIssues(event: EventInput, index: number, nowMs: number): IngestIssue[] {
  const issues: IngestIssue[] = [];
  const byId = event.customer_id !== undefined;
  const byExternalId = event.external_customer_id !== undefined;
  if (byId === byExternalId) {
    issues.push({
      index,
      field: byId ? 'external_customer_id' : null,
      message: byId
        ? 'Send customer_id or external_customer_id, not both.'
        : 'Name the customer with customer_id or external_customer_id.',
    });
  }
  if (event.timestamp !== undefined && Date.parse(event.timestamp) > nowMs + MAX_CLOCK_SKEW_MS) {
    issues.push({
      index,
      field: 'timestamp',
      message: 'The timestamp is in the future. Send the time the usage happened, or leave it out for now.',
    });
  }
  return issues;
}

/** Whether a quantities range fits its bucket size (Polar's caps), and what is wrong when not. */
export function rangeIssue(
  interval: TimeInterval,
  startMs: number,
  endMs: number,
): { field: 'end_timestamp' | 'interval'; message: string } | null {
  if (endMs < startMs)
    return { field: 'end_timestamp', message: 'The end of the range is before its start.' };
  if (endMs - startMs > MAX_RANGE_DAYS[interval] * DAY_MS) {
    return {
      field: 'interval',
      message: `The interval is too big. Try to change the interval or reduce the date range (at most ${MAX_RANGE_DAYS[interval]} days by ${interval}).`,
    };
  }
  return null;
}

/** A meter's property names an event column or, otherwise, a metadata key (`metadata.` optional). */
export type EventProperty = { column: 'name' | 'source' } | { metadataKey: string };

export function eventProperty(property: string): EventProperty {
  if (property === 'name' || property === 'source') return { column: property };
  return { metadataKey: property.startsWith('metadata.') ? property.slice('metadata.'.length) : property };
}

/** The metadata key a sum/max/min/avg meter reads. */
export function aggregatedKey(aggregation: Aggregation): string | null {
  if (aggregation.func === 'count') return null;
  const property = eventProperty(aggregation.property);
  return 'metadataKey' in property ? property.metadataKey : null;
}

/**
 * A meter's filter applied to one event, in memory: the reference the SQL translation
 * (repository.ts) is property-tested against, with Polar's semantics. `name` and `source` compare
 * with string values only. A metadata value compares by its own JSON type: a string with the
 * value as text (`true` → `t`), a number with an integer (or a boolean as 1/0) numerically, a
 * boolean with a boolean; any other pairing, or a missing key, matches nothing (`ne` included).
 * `like` and `not_like` match the value anywhere in the text (`%` and `_` are wildcards), on the
 * text of any metadata value.
 */
export function eventMatches(filter: Filter, event: FilteredEvent): boolean {
  const results = filter.clauses.map((entry) =>
    'operator' in entry ? clauseMatches(entry, event) : eventMatches(entry, event),
  );
  if (results.length === 0) return true;
  return filter.conjunction === 'and' ? results.every(Boolean) : results.some(Boolean);
}

type FilteredEvent = { name: string; source: string; metadata: Record<string, unknown> };
type Operator = FilterClause['operator'];

/** A clause's value as text, as Polar writes it for a text comparison. */
export const clauseValueText = (value: FilterClause['value']) =>
  typeof value === 'boolean' ? (value ? 't' : 'f') : String(value);

function clauseMatches(clause: FilterClause, event: FilteredEvent): boolean {
  const { operator, value } = clause;
  const property = eventProperty(clause.property);
  if ('column' in property) {
    return typeof value === 'string' && compares(event[property.column], value, operator);
  }
  const actual = event.metadata[property.metadataKey];
  if (typeof actual !== 'string' && typeof actual !== 'number' && typeof actual !== 'boolean') return false;
  if (operator === 'like' || operator === 'not_like')
    return compares(String(actual), clauseValueText(value), operator);
  if (typeof actual === 'string') return compares(actual, clauseValueText(value), operator);
  if (typeof actual === 'number') {
    return typeof value !== 'string' && compares(actual, Number(value), operator);
  }
  return typeof value === 'boolean' && compares(actual, value, operator);
}

function compares<T extends string | number | boolean>(actual: T, expected: T, operator: Operator): boolean {
  if (operator === 'like' || operator === 'not_like') {
    const matched = likePattern(String(expected)).test(String(actual));
    return operator === 'like' ? matched : !matched;
  }
  switch (operator) {
    case 'eq':
      return actual === expected;
    case 'ne':
      return actual !== expected;
    case 'gt':
      return actual > expected;
    case 'gte':
      return actual >= expected;
    case 'lt':
      return actual < expected;
    case 'lte':
      return actual <= expected;
  }
}

/** `%value%` as PostgreSQL's LIKE reads it: `%` any run, `_` any one character, `\` escapes. */
function likePattern(value: string): RegExp {
  let source = '';
  for (let index = 0; index < value.length; index += 1) {
    const character = value[index]!;
    if (character === '\\' && index + 1 < value.length) {
      index += 1;
      source += escapeRegExp(value[index]!);
    } else if (character === '%') source += '.*';
    else if (character === '_') source += '.';
    else source += escapeRegExp(character);
  }
  return new RegExp(`^.*${source}.*$`, 's');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A non-negative decimal text (`12`, `0.0035`, `150.500000`) as an integer scaled by 10^scale. */
function scaledDecimal(text: string): { digits: bigint; scale: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = match[3] ?? '';
  const digits = BigInt(`${match[2]}${fraction}`);
  return { digits: match[1] ? -digits : digits, scale: fraction.length };
}

/** An integer scaled by 10^scale as decimal text, without trailing zeros: (12500, 3) → `12.5`. */
function decimalText(digits: bigint, scale: number): string {
  const negative = digits < 0n;
  const text = (negative ? -digits : digits).toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export type MeteredLineCharge = {
  /** Units used less units credited, never below zero (decimal text, exact). */
  billableUnits: string;
  /** The line in minor units, after the cap. */
  amount: number;
  /** Whether the cap lowered the amount. */
  capped: boolean;
};

/**
 * What a metered price bills for a period, in minor units: the billable units (used less
 * credited, never below zero) times the unit amount (a decimal of cents: sub-cent prices are
 * common), rounded once, half up, on the line's total (never per unit), then capped. Exact: the
 * inputs are decimal texts, as PostgreSQL's `numeric` gives them.
 */
export function meteredLineCharge(input: {
  unitAmount: string;
  units: string;
  creditedUnits: string;
  capAmount: number | null;
}): MeteredLineCharge {
  const units = scaledDecimal(input.units);
  const credited = scaledDecimal(input.creditedUnits);
  const scale = Math.max(units.scale, credited.scale);
  const billable =
    units.digits * 10n ** BigInt(scale - units.scale) -
    credited.digits * 10n ** BigInt(scale - credited.scale);
  if (billable <= 0n) return { billableUnits: '0', amount: 0, capped: false };
  const unitAmount = scaledDecimal(input.unitAmount);
  const product = billable * unitAmount.digits;
  const divisor = 10n ** BigInt(scale + unitAmount.scale);
  const rounded = Number((product * 2n + divisor) / (2n * divisor));
  const capped = input.capAmount !== null && rounded > input.capAmount;
  return {
    billableUnits: decimalText(billable, scale),
    amount: capped ? input.capAmount! : rounded,
    capped,
  };
}

/** The amount of `meteredLineCharge`: what the line bills. */
export function meteredLineAmount(input: Parameters<typeof meteredLineCharge>[0]): number {
  return meteredLineCharge(input).amount;
}

/**
 * A period's credits of one meter, applied once across the lines that bill its usage in that
 * period, in the order they used the meter: the earliest usage first, as a credit is consumed by
 * the first units. `takenBefore` is what usage billed earlier in the period already took (a plan
 * change that dropped a metered price). Each line is offered what is left when its turn comes
 * (`available`, the credits its charge takes off) and uses what its units need of it; `taken` is
 * what the period's lines have taken so far, these included. Exact, in decimal texts.
 */
export function shareMeterCredits(input: {
  credited: string;
  takenBefore: string;
  units: readonly string[];
}): { available: string[]; taken: string } {
  const decimals = [input.credited, input.takenBefore, ...input.units].map(scaledDecimal);
  const scale = Math.max(...decimals.map((decimal) => decimal.scale));
  const [credited, takenBefore, ...units] = decimals.map(
    (decimal) => decimal.digits * 10n ** BigInt(scale - decimal.scale),
  );
  const atLeastZero = (value: bigint) => (value > 0n ? value : 0n);
  const offeredFirst = atLeastZero(credited! - takenBefore!);
  let left = offeredFirst;
  const available = units.map((used) => {
    const offered = left;
    left -= atLeastZero(used) < offered ? atLeastZero(used) : offered;
    return decimalText(offered, scale);
  });
  return { available, taken: decimalText(takenBefore! + offeredFirst - left, scale) };
}
