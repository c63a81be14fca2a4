import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';
import { AppError, ERRORS, InvalidInputError } from '../../domain/platform/errors.js';
import { OAuthError } from '../../domain/oauth2/rules.js';

export const notFoundHandler: RequestHandler = () => {
  throw new AppError('ResourceNotFound');
};

type BodyParserError = Error & { type?: string; status?: number };

function isBodyParserError(error: unknown): error is BodyParserError {
  return error instanceof Error && typeof (error as BodyParserError).type === 'string';
}

/**
 * Express decodes path parameters before any route runs; a malformed percent-encoding
 * (`/customers/external/%E0%A4%A`) throws a URIError there. The URL is the client's mistake.
 */
const isUrlDecodingError = (error: unknown): error is URIError => error instanceof URIError;

/** The named error of the table for a status the body parser gives (charset, encoding, size). */
function bodyParserErrorName(
  status: number | undefined,
): 'BadRequest' | 'PayloadTooLarge' | 'UnsupportedMediaType' | null {
  if (status === 413) return 'PayloadTooLarge';
  if (status === 415) return 'UnsupportedMediaType';
  if (status !== undefined && status >= 400 && status < 500) return 'BadRequest';
  return null;
}

/** The one error renderer of the API. Unknown errors are logged, never shown. */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const requestId = res.locals.requestId as string | undefined;

    if (error instanceof InvalidInputError) {
      res.status(422).json({ detail: error.issues });
      return;
    }
    if (error instanceof OAuthError) {
      // RFC 6749 §5.1: answers about credentials are never cached.
      res
        .set({ 'Cache-Control': 'no-store', ...error.headers })
        .status(error.status)
        .json({
          error: error.error,
          error_description: error.message,
          ...(error.redirectTo ? { redirect_to: error.redirectTo } : {}),
        });
      return;
    }
    if (error instanceof AppError) {
      res.set(error.headers).status(error.status).json({ error: error.errorName, detail: error.message });
      return;
    }
    if (isUrlDecodingError(error)) {
      res.status(400).json({ error: 'BadRequest', detail: 'The URL is not correctly percent-encoded.' });
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
        res.status(413).json({ error: 'PayloadTooLarge', detail: ERRORS.PayloadTooLarge.message });
        return;
      }
      // The others (unsupported charset or encoding, an aborted upload) are the client's too.
      const name = bodyParserErrorName(error.status);
      if (name) {
        res.status(ERRORS[name].status).json({ error: name, detail: error.message });
        return;
      }
    }

    if (isDatabaseUnavailable(error)) {
      // The client may retry (with an Idempotency-Key a retry never does the work twice).
      ((res.locals.logger as Logger | undefined) ?? logger).warn(
        { requestId, reason: (error as Error).message },
        'database unavailable',
      );
      res.set('Retry-After', '1').status(503).json({
        error: 'ServiceUnavailable',
        detail: 'The service is busy; retry in a moment.',
        request_id: requestId,
      });
      return;
    }
    ((res.locals.logger as Logger | undefined) ?? logger).error({ err: error, requestId }, 'unhandled error');
    res.status(500).json({
      error: 'InternalServerError',
      detail: ERRORS.InternalServerError.message,
      request_id: requestId,
    });
  };
}
