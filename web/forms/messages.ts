import { ApiError, type ValidationIssue } from '../api';

// The API's 422 issues name a wire path (`prices.0.price_amount`) and carry zod's own sentence
// ("Too small: expected number to be >=50"), in the API's units. A form shows neither: each form
// lists, per field it shows, what to say for each kind of problem, in the units the seller typed.

/** What one field says, by the issue's `type` (zod's codes, or a service's such as `value_error`). */
export type FieldWords = {
  /**
   * Said for any schema problem the field does not name. A rule only the service checks (a taken
   * code, a redeemed discount) keeps the service's own sentence, written for people, unless the
   * field names its type (`value_error`).
   */
  other?: string;
} & Partial<Record<string, string>>;

/**
 * A form's words, keyed by the field's path after `body`; list indexes are written `*`
 * (`prices.*.price_amount`), and the error lands under the real path (`prices.0.price_amount`).
 */
export type FormWords = Record<string, FieldWords>;

export type FormErrors = { fields: Record<string, string>; form: string | null };

export const NO_ERRORS: FormErrors = { fields: {}, form: null };

/**
 * The codes zod gives its issues, and the FastAPI-style ones a few checks give in its words
 * ("Field required", "Input should be a valid integer"): their sentences are the schema's, never
 * shown as they come.
 */
const SCHEMA_ISSUE_TYPES = new Set([
  'missing',
  'int_type',
  'invalid_type',
  'too_big',
  'too_small',
  'invalid_format',
  'not_multiple_of',
  'unrecognized_keys',
  'invalid_union',
  'invalid_key',
  'invalid_element',
  'invalid_value',
  'custom',
]);

/** Said for a refusal about something the form does not show, whose own sentence is a schema's. */
export const UNKNOWN_FIELD_MESSAGE = 'Something in this form was refused. Check the values and try again.';
/** Said next to a field whose words do not cover the refusal and whose sentence is a schema's. */
export const INVALID_VALUE_MESSAGE = 'Check this value.';

function pathOf(issue: ValidationIssue): string[] {
  const loc = issue.loc ?? [];
  return (loc[0] === 'body' ? loc.slice(1) : loc).map(String);
}

/** The words entry for a path: exact first, then with list indexes as `*`. */
function wordsAt(words: FormWords, path: string[]): FieldWords | undefined {
  return words[path.join('.')] ?? words[path.map((part) => (/^\d+$/.test(part) ? '*' : part)).join('.')];
}

/** One issue in the form's words: its field's sentence for the issue's type, else the field's `other`. */
export function describeIssue(
  issue: ValidationIssue & { type?: string },
  words: FormWords,
): { field: string | null; message: string } {
  const path = pathOf(issue);
  const field = path.length > 0 ? wordsAt(words, path) : undefined;
  // Rules only a service checks (a redeemed discount, a taken code) are written for people.
  const isSchemaText = issue.type === undefined || SCHEMA_ISSUE_TYPES.has(issue.type) || !issue.msg;
  const own = isSchemaText ? null : (issue.msg ?? null);
  if (field) {
    // The service's own sentence is the truth about its rule ("A discount with this code already
    // exists."): the field's general words are for schema refusals only.
    const message = field[issue.type ?? ''] ?? own ?? field.other ?? INVALID_VALUE_MESSAGE;
    return { field: path.join('.'), message };
  }
  return { field: null, message: own ?? UNKNOWN_FIELD_MESSAGE };
}

/**
 * A failed save as the form shows it: each 422 issue under its field, in the form's words; other
 * failures (403, 404, 409, a broken connection) as one message for the form, as the API said it.
 */
export function formErrorsInWords(failure: unknown, words: FormWords): FormErrors {
  if (!(failure instanceof ApiError) || failure.status !== 422 || failure.issues.length === 0) {
    return { fields: {}, form: failure instanceof Error ? failure.message : String(failure) };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of failure.issues) {
    const { field, message } = describeIssue(issue, words);
    if (field) fields[field] ??= message;
    else if (!rest.includes(message)) rest.push(message);
  }
  return { fields, form: rest.length > 0 ? rest.join(' ') : null };
}

/** Errors found before sending, in the same shape: no request when one field is already wrong. */
export function fieldErrors(found: Record<string, string | null>): FormErrors | null {
  const fields = Object.fromEntries(
    Object.entries(found).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  return Object.keys(fields).length > 0 ? { fields, form: null } : null;
}

/** Better Auth's answer to a failed call (`/api/auth/*`): a code and a message, no field list. */
export type AuthFailure = { code?: string; message?: string; status?: number; statusText?: string };

/**
 * Better Auth's refusals in the form's words. Its body validation says `[body.slug] Too small…`:
 * the bracket names the field (camelCase, as Better Auth's bodies are); its own error codes
 * (`ORGANIZATION_SLUG_ALREADY_TAKEN`) map through `codes` to a field and a sentence.
 */
export function authErrorsInWords(
  failure: AuthFailure,
  words: FormWords,
  codes: Record<string, { field: string | null; message: string }> = {},
): FormErrors {
  const known = failure.code ? codes[failure.code] : undefined;
  if (known)
    return known.field
      ? { fields: { [known.field]: known.message }, form: null }
      : { fields: {}, form: known.message };
  const located = /^\[body\.([\w.]+)\]\s*(.*)$/s.exec(failure.message ?? '');
  if (located) {
    const path = located[1]!.split('.');
    const type = typeOfSchemaText(located[2] ?? '');
    const { field, message } = describeIssue({ loc: path, msg: located[2], type }, words);
    return field ? { fields: { [field]: message }, form: null } : { fields: {}, form: message };
  }
  return { fields: {}, form: failure.message || failure.statusText || 'Something went wrong.' };
}

/** zod's sentence back to its code, for the validation texts Better Auth passes on without one. */
function typeOfSchemaText(text: string): string {
  if (/^Too small/i.test(text) || /must not be empty|at least/i.test(text)) return 'too_small';
  if (/^Too big/i.test(text) || /at most/i.test(text)) return 'too_big';
  if (/^Invalid input: expected/i.test(text)) return 'invalid_type';
  if (/^Invalid/i.test(text)) return 'invalid_format';
  return 'custom';
}
