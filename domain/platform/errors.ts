import type { z } from 'zod';

// The one table of errors a caller can meet, used by domain code and rendered by api/http/errors.ts.
// Names are the ones Polar's SDK reads from `{"error": name, "detail": message}`; the status is what
// it is raised with; the message is the default detail. Invalid input (422) has its own shape
// (`InvalidInputError`: FastAPI's `{"detail": [{loc, msg, type}]}`, as Polar answers).

export const ERRORS = {
  BadRequest: { status: 400, message: 'The request is malformed.' },
  Unauthorized: { status: 401, message: 'Authentication is required.' },
  NotPermitted: { status: 403, message: 'You are not permitted to perform this action.' },
  ResourceNotFound: { status: 404, message: 'Not found' },
  MethodNotAllowed: { status: 405, message: 'This method is not allowed on this resource.' },
  Conflict: { status: 409, message: 'The request conflicts with the current state.' },
  PayloadTooLarge: { status: 413, message: 'The request body is too large.' },
  UnsupportedMediaType: { status: 415, message: 'Request bodies must be application/json.' },
  TooManyRequests: { status: 429, message: 'Too many requests; retry later.' },
  InternalServerError: { status: 500, message: 'An unexpected error occurred.' },
  NotImplemented: { status: 501, message: 'This operation is not available in Tollgate.' },
  ServiceUnavailable: { status: 503, message: 'The service is temporarily unavailable.' },
  ExpiredCheckoutError: { status: 410, message: 'This checkout session has expired.' },
  NotOpenCheckout: { status: 403, message: 'This checkout is not open.' },
  PaymentError: { status: 400, message: 'The payment failed.' },
  RefundAmountTooHigh: { status: 400, message: 'The refund amount exceeds what is left to refund.' },
  RefundedAlready: { status: 403, message: 'The order is already fully refunded.' },
  InvoiceAlreadyExists: { status: 409, message: 'An invoice already exists for this order.' },
  MissingInvoiceBillingDetails: {
    status: 422,
    message: 'Billing name and address are required to generate an invoice.',
  },
  NotPaidOrder: { status: 422, message: 'The order is not paid.' },
  AlreadyActiveSubscriptionError: { status: 403, message: 'You already have an active subscription.' },
  // `subscriptions.update` with `trial_end` on a plan outside the active group (trial-changes.ts).
  InactiveSubscription: { status: 403, message: 'This subscription is not active.' },
  // Trial abuse prevention (domain/checkouts/trial-abuse.ts): Polar's name and status.
  TrialAlreadyRedeemed: {
    status: 403,
    message: 'You have already had a free trial here: a trial is given once per customer and per card.',
  },
  AlreadyCanceledSubscription: {
    status: 403,
    message: 'This subscription is already canceled or will be at the end of the period.',
  },
  // Pause and resume (domain/subscriptions/pause.ts), Polar's names and 409s.
  CannotPauseSubscription: { status: 409, message: 'This subscription cannot be paused.' },
  NoScheduledPause: { status: 409, message: 'This subscription is not scheduled to be paused.' },
  NotPausedSubscription: { status: 409, message: 'This subscription is not paused.' },
  PauseResumeNotAllowed: { status: 403, message: 'Pausing or resuming a subscription is not allowed.' },
  ResourceUnavailable: { status: 410, message: 'This resource is no longer available.' },
  OrderNotEligibleForRetry: { status: 422, message: 'This order has no payment to confirm.' },
  PaymentAlreadyInProgress: { status: 409, message: 'A payment for this order is under way.' },
  DisputeNotOpenError: { status: 409, message: 'The dispute is closed: it can no longer be accepted.' },
  ManualRetryLimitExceeded: { status: 429, message: 'This order cannot be paid here any more.' },
  ProductNotDeletable: {
    status: 409,
    message: 'This product is in use and cannot be deleted: archive it instead.',
  },
  // Customer seats (domain/customer-seats/service.ts): Polar's names and statuses.
  SeatNotAvailable: { status: 400, message: 'No seat is left to assign: add seats first.' },
  SeatAlreadyAssigned: { status: 400, message: 'This person already has a seat of this purchase.' },
  SeatNotPending: {
    status: 400,
    message: 'Only a seat whose invitation is not yet accepted can be sent again.',
  },
  InvalidInvitationToken: {
    status: 400,
    message: 'This invitation link is invalid, used or expired: ask whoever invited you for a new one.',
  },
  FeatureNotEnabled: { status: 403, message: 'Seat-based pricing is not enabled for this organization.' },
  CustomerNotFound: { status: 404, message: 'Customer not found.' },
  OrderNotDraft: { status: 412, message: 'Only draft orders can be finalized.' },
  PaymentFailed: { status: 402, message: 'The payment failed.' },
  PaymentActionRequired: {
    status: 402,
    message: 'The payment requires customer authentication (3-D Secure), which cannot complete off-session.',
  },
  InvalidCustomerEmailUpdate: {
    status: 401,
    message: 'This email update request is invalid or has expired.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorName = keyof typeof ERRORS;

/** A named error of the table; `detail` says what happened in the caller's terms. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly errorName: ErrorName,
    detail?: string,
    /** Headers the answer carries (`Retry-After`, `WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? ERRORS[errorName].message);
    this.name = 'AppError';
    this.status = ERRORS[errorName].status;
  }
}

/** `loc` starts with where the field is: `body`, `query`, `path` or `header`. */
export type FieldIssue = { loc: (string | number)[]; msg: string; type: string };

/**
 * The input is invalid (422): its schema refused it, or it breaks a rule only the service can check
 * (uniqueness, references, sums across fields). Every issue found is reported at once.
 */
export class InvalidInputError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => issue.msg).join(' '));
    this.name = 'InvalidInputError';
  }
}

/** One field of the input is invalid. */
export class InvalidFieldError extends InvalidInputError {
  constructor(
    readonly loc: (string | number)[],
    message: string,
    readonly type = 'value_error',
  ) {
    super([{ loc, msg: message, type }]);
    this.name = 'InvalidFieldError';
  }
}

/** A zod refusal as a 422, each issue located under `location`. */
export function invalidInputFromZod(
  error: z.ZodError,
  location: 'body' | 'query' | 'path' | 'header',
): InvalidInputError {
  return new InvalidInputError(
    error.issues.flatMap(matchedVariantIssues).map((issue) => ({
      loc: [location, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
      msg: issue.message,
      type: issueType(issue),
    })),
  );
}

/** A refinement may name its own type (`params.type`), as a feature not available yet does. */
function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' && typeof issue.params?.type === 'string') return issue.params.type;
  return issue.code;
}

/**
 * A body matched by shape (a union of strict objects, such as a subscription's PATCH): the issues
 * of the variants that accept the body's keys say what is wrong with which field, where the
 * union's "Invalid input" would not.
 */
function matchedVariantIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const keyed = issue.errors.filter((variant) => !variant.some((each) => each.code === 'unrecognized_keys'));
  // A variant of another type than the value (a string where a pair was sent) was not the one meant.
  const typed = keyed.filter(
    (variant) => !variant.some((each) => each.code === 'invalid_type' && each.path.length === 0),
  );
  const shaped = typed.length > 0 ? typed : keyed;
  if (shaped.length === 0) return [issue];
  // Several variants fit the keys: what every one of them finds wrong is wrong whichever was meant.
  const keyOf = (each: z.core.$ZodIssue) => `${each.code} ${each.path.map(String).join('.')}`;
  const common = shaped[0]!.filter((each) =>
    shaped.every((variant) => variant.some((other) => keyOf(other) === keyOf(each))),
  );
  if (common.length === 0) return [issue];
  return common.map((each) => ({ ...each, path: [...issue.path, ...each.path] }) as z.core.$ZodIssue);
}
