/** A page of a list as the pagination query asks for it (schemas.ts validates it). */
type PageQuery = { page: number; limit: number };

export function pageToSkipTake({ page, limit }: PageQuery) {
  return { skip: (page - 1) * limit, take: limit };
}

export function paginated<T>(items: T[], totalCount: number, { limit }: PageQuery) {
  return { items, pagination: { total_count: totalCount, max_page: Math.ceil(totalCount / limit) } };
}

/** `-field` sorts descending (Polar's convention). */
export function parseSorting<F extends string>(
  sorting: readonly string[],
): { field: F; direction: 'asc' | 'desc' }[] {
  return sorting.map((entry) =>
    entry.startsWith('-')
      ? { field: entry.slice(1) as F, direction: 'desc' as const }
      : { field: entry as F, direction: 'asc' as const },
  );
}

/** JSON with object keys sorted at every depth: two bodies that mean the same hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// ── Text ────────────────────────────────────────────────────────────────────────────────────────
// One rule for every text a caller sends (body, query, path), applied by `textSchema`
// (schemas.ts) and by checks that read text outside a schema (custom field values).

/**
 * Control characters other than tab, line feed and carriage return: C0, DEL and C1. NUL is the one
 * PostgreSQL refuses outright (a 500 before this rule); the others are never typed by a person and
 * corrupt what the text ends up in (logs, CSV exports, invoices, emails).
 */
// eslint-disable-next-line no-control-regex -- naming control characters is this pattern's purpose
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The same set as a whole-string JSON Schema `pattern`, so the OpenAPI document states the rule. */
// eslint-disable-next-line no-control-regex -- as above
export const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$/;

/**
 * A UTF-16 surrogate without its partner (JSON's `"\ud800"`) is no character at all: it has no UTF-8
 * encoding, so PostgreSQL cannot store it. With the `u` flag a well-formed pair is one code point and
 * never matches.
 */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

export const hasControlCharacters = (text: string): boolean => CONTROL_CHARACTER.test(text);
export const isWellFormedText = (text: string): boolean => !UNPAIRED_SURROGATE.test(text);

/** Characters as people, Python (Polar) and PostgreSQL count them: code points, so an emoji is one. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _codePoint of text) count += 1;
  return count;
}

export const TEXT_MESSAGES = {
  controlCharacters: 'Must not contain control characters.',
  malformedUnicode: 'Must be valid Unicode text (no unpaired surrogate characters).',
  tooLong: (max: number) => `Must be at most ${max} character${max === 1 ? '' : 's'}.`,
  tooShort: (min: number) => (min === 1 ? 'Must not be empty.' : `Must be at least ${min} characters.`),
} as const;

export type TextLimits = { max: number; min?: number };

/**
 * SMTP's limits on an address (RFC 5321 §4.5.3.1): at most 64 characters before the @ and 63 per
 * domain label. Longer addresses cannot receive mail, and JSON Schema's `email` format refuses them.
 */
export function isWithinEmailLimits(address: string): boolean {
  const at = address.lastIndexOf('@');
  return (
    at <= 64 &&
    address
      .slice(at + 1)
      .split('.')
      .every((label) => label.length <= 63)
  );
}

/** How `text` breaks the text rule (first problem only), or null when it follows it. */
export function textRuleViolation(
  text: string,
  { max, min = 0 }: TextLimits,
): { message: string; type: 'invalid_format' | 'too_big' | 'too_small' } | null {
  if (hasControlCharacters(text)) return { message: TEXT_MESSAGES.controlCharacters, type: 'invalid_format' };
  if (!isWellFormedText(text)) return { message: TEXT_MESSAGES.malformedUnicode, type: 'invalid_format' };
  const count = characterCount(text);
  if (count > max) return { message: TEXT_MESSAGES.tooLong(max), type: 'too_big' };
  if (count < min) return { message: TEXT_MESSAGES.tooShort(min), type: 'too_small' };
  return null;
}

/**
 * One CSV record (RFC 4180), CRLF-terminated. A cell that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return first) is prefixed with `'`: buyers choose their names
 * and emails, and an export must not execute them on the seller's machine.
 */
export function csvLine(cells: readonly (string | number | boolean | null)[]): string {
  return `${cells
    .map((cell) => {
      let text = cell === null ? '' : String(cell);
      if (typeof cell === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',')}\r\n`;
}
