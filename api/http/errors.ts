import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { z } from 'zod';
import type { Logger } from '../../infra/logger.js';

/**
 * Every named API error: the name is what Polar's SDK expects in `{"error": name}`, the status is
 * what it is raised with, the message is the default `detail`. 422 is only for invalid payloads
 * and has its own shape (`ValidationFailed` below).
 */
export const errorTable = {
  Unauthorized: { status: 401, message: 'Authentication is required.' },
  NotPermitted: { status: 403, message: 'You are not permitted to perform this action.' },
  ResourceNotFound: { status: 404, message: 'Not found' },
  Conflict: { status: 409, message: 'The request conflicts with the current state.' },
  PayloadTooLarge: { status: 413, message: 'The request body is too large.' },
  UnsupportedMediaType: { status: 415, message: 'Request bodies must be application/json.' },
  TooManyRequests: { status: 429, message: 'Too many requests; retry later.' },
  InternalServerError: { status: 500, message: 'An unexpected error occurred.' },
  NotImplemented: { status: 501, message: 'This operation is not available in Tollgate.' },
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
  ServiceUnavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorName = keyof typeof errorTable;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly errorName: ErrorName,
    detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? errorTable[errorName].message);
    this.name = 'AppError';
    this.status = errorTable[errorName].status;
  }
}

export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string; input?: unknown };

/** Invalid input: rendered as 422 `{ detail: [{ loc, msg, type }] }` (FastAPI's shape, as Polar's). */
export class ValidationFailed extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
    this.name = 'ValidationFailed';
  }

  static fromZod(error: z.ZodError, location: 'body' | 'query' | 'path' | 'header'): ValidationFailed {
    return new ValidationFailed(
      error.issues.map((issue) => ({
        loc: [location, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
        msg: issue.message,
        type: issue.code,
      })),
    );
  }
}

export const notFoundHandler: RequestHandler = () => {
  throw new AppError('ResourceNotFound');
};

type BodyParserError = Error & { type?: string; status?: number };

function isBodyParserError(error: unknown): error is BodyParserError {
  return error instanceof Error && typeof (error as BodyParserError).type === 'string';
}

/** The one error renderer of the API. Unknown errors are logged, never shown. */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const requestId = res.locals.requestId as string | undefined;

    if (error instanceof ValidationFailed) {
      res.status(422).json({ detail: error.issues });
      return;
    }
    if (error instanceof AppError) {
      res.set(error.headers).status(error.status).json({ error: error.errorName, detail: error.message });
      return;
    }
    if (isBodyParserError(error)) {
      if (error.type === 'entity.parse.failed') {
        res.status(422).json({
          detail: [{ loc: ['body'], msg: 'Request body is not valid JSON.', type: 'json_invalid' }],
        });
        return;
      }
      if (error.type === 'entity.too.large') {
        res.status(413).json({ error: 'PayloadTooLarge', detail: errorTable.PayloadTooLarge.message });
        return;
      }
    }

    ((res.locals.logger as Logger | undefined) ?? logger).error({ err: error, requestId }, 'unhandled error');
    res.status(500).json({
      error: 'InternalServerError',
      detail: errorTable.InternalServerError.message,
      request_id: requestId,
    });
  };
}
