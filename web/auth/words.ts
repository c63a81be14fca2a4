import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/users/rules';

/** What the password fields say before anyone types: the length Better Auth takes. */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters.`;

/** Better Auth's codes for a new password it refuses, under the password field. */
export const PASSWORD_CODES = {
  PASSWORD_TOO_SHORT: { field: 'password', message: `Use at least ${PASSWORD_MIN_LENGTH} characters.` },
  PASSWORD_TOO_LONG: { field: 'password', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` },
};

/** A typed password's length problem before it is sent, or null. */
export function passwordLengthError(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_CODES.PASSWORD_TOO_SHORT.message;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_CODES.PASSWORD_TOO_LONG.message;
  return null;
}

/** A 429 of Better Auth: its per-address limit, or our per-account back-off after failed sign-ins. */
export const TOO_MANY_FAILED_SIGN_INS = 'TOO_MANY_FAILED_SIGN_INS';
