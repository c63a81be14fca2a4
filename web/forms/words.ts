import { formatMoney } from '../money/format';
import type { FieldWords } from './messages';

// Sentences shared by the dashboard's forms, built from the limits the API checks, so that the
// words and the checks cannot drift apart.

const characters = (count: number) => `${count.toLocaleString('en-US')} character${count === 1 ? '' : 's'}`;

/** Characters that are never part of a name or a sentence (tab and line breaks aside). */
const CONTROL_CHARACTERS = 'Remove the control characters (they cannot be typed, only pasted).';

/** A required name: "Enter a product name.", at least `min` and at most `max` characters. */
export function nameWords(what: string, { max, min = 1 }: { max: number; min?: number }): FieldWords {
  const missing = min > 1 ? `Enter a ${what} of at least ${characters(min)}.` : `Enter a ${what}.`;
  return {
    invalid_type: missing,
    too_small: missing,
    too_big: `Enter at most ${characters(max)}.`,
    invalid_format: CONTROL_CHARACTERS,
  };
}

/** Optional text (a description, a note): only its length and characters can be wrong. */
export function textWords(max: number): FieldWords {
  return { too_big: `Enter at most ${characters(max)}.`, invalid_format: CONTROL_CHARACTERS };
}

/**
 * An amount the seller types in dollars and the API takes in cents (spec §5): its bounds are said
 * in dollars ("Enter at least $0.50."), as the field reads.
 */
export function dollarWords({ min, max }: { min: number; max: number }): FieldWords {
  return {
    too_small: `Enter at least ${formatMoney(min, 'usd')}.`,
    too_big: `Enter at most ${formatMoney(max, 'usd')}.`,
    invalid_type: 'Enter an amount in dollars, such as 9.99.',
    other: `Enter an amount from ${formatMoney(min, 'usd')} to ${formatMoney(max, 'usd')}.`,
  };
}

/** A percentage the seller types ("12.5") and the API takes in basis points (1 to 10,000). */
export const PERCENT_WORDS: FieldWords = {
  too_small: 'A percentage is at least 0.01%.',
  too_big: 'A percentage is at most 100%.',
  other: 'Enter a percentage from 0.01 to 100, such as 12.5.',
};

/** A whole number of something ("months", "redemptions") within the API's bounds. */
export function countWords(unit: string, { min, max }: { min: number; max: number }): FieldWords {
  const range = `Enter a whole number of ${unit} from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}.`;
  return { too_small: range, too_big: range, invalid_type: range, other: range };
}

export const URL_WORDS: FieldWords = {
  too_big: 'This address is too long.',
  other: 'Enter a full web address, starting with https://.',
};

const ENTER_AN_EMAIL = 'Enter an email address, such as name@example.com.';

/** Without `other`: a taken address is the service's to say ("A customer with this email…"). */
export const EMAIL_WORDS: FieldWords = {
  invalid_type: ENTER_AN_EMAIL,
  invalid_format: ENTER_AN_EMAIL,
  too_small: ENTER_AN_EMAIL,
  too_big: 'This address is too long to receive mail.',
  custom: 'This address is too long to receive mail.',
};

/** A choice in a list (a meter, a product): only a missing or vanished one can be wrong. */
export function choiceWords(what: string): FieldWords {
  return { invalid_type: `Choose a ${what}.`, other: `Choose a ${what} from the list.` };
}

export type PercentRead = { basisPoints: number | null; error: null } | { basisPoints: null; error: string };

/** Said when a percentage has more decimals than basis points hold. */
export const PERCENT_DECIMALS = 'Enter a percentage with at most 2 decimals, such as 12.35.';

/**
 * A typed percentage ("12.5", "12,5") in basis points (1250), from its digits: 12.345 % cannot be
 * sent and is refused with the precision allowed, never rounded; null for an empty field.
 */
export function readPercent(text: string, notAPercentage: string): PercentRead {
  const trimmed = text.trim().replace(/\s*%$/, '');
  if (!trimmed) return { basisPoints: null, error: null };
  const match = /^(\d{0,6})(?:[.,](\d*))?$/.exec(trimmed);
  if (!match || !/\d/.test(trimmed)) return { basisPoints: null, error: notAPercentage };
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > 2) return { basisPoints: null, error: PERCENT_DECIMALS };
  return { basisPoints: Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0')), error: null };
}
