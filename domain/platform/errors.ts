// Errors any domain service may throw; the /v1 operation registry turns them into HTTP answers.

/** The object does not exist for this caller (also for other organizations' objects). */
export class NotFoundError extends Error {
  constructor(message = 'Not found') {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The caller may see the object but not do this to it. */
export class ForbiddenError extends Error {
  constructor(message = 'You are not permitted to perform this action.') {
    super(message);
    this.name = 'ForbiddenError';
  }
}

export type FieldIssue = { loc: (string | number)[]; msg: string; type: string };

/**
 * The input breaks rules only the service can check (uniqueness, references, sums across fields).
 * Every issue found is reported at once; `loc` starts with where the field is (`body`, `query`).
 */
export class InvalidInputError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((issue) => issue.msg).join(' '));
    this.name = 'InvalidInputError';
  }
}

/** One field of the input breaks such a rule. */
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

/**
 * A business rule of Polar's API with its own error name (`ExpiredCheckoutError`,
 * `RefundAmountTooHigh` …); the API answers `{ error: name, detail }` with the name's status.
 */
export class RuleError extends Error {
  constructor(
    readonly errorName: RuleErrorName,
    message: string,
  ) {
    super(message);
    this.name = 'RuleError';
  }
}

export type RuleErrorName =
  | 'ExpiredCheckoutError'
  | 'NotOpenCheckout'
  | 'PaymentError'
  | 'RefundAmountTooHigh'
  | 'RefundedAlready'
  | 'InvoiceAlreadyExists'
  | 'MissingInvoiceBillingDetails'
  | 'NotPaidOrder';
