import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../../infra/logger.js';

const REQUEST_ID_HEADER = 'x-request-id';
// Accept a caller's id (a proxy's, a client's retry) only when it is safe to log and echo.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (echoed in `X-Request-Id`), a child logger, and one access log line. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get(REQUEST_ID_HEADER);
    const requestId = incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const requestLogger = logger.child({ requestId });
    res.locals.requestId = requestId;
    res.locals.logger = requestLogger;
    res.setHeader('X-Request-Id', requestId);

    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // A 503 is an outage the client is told to wait out (the cause is logged once as a warning);
      // any other 5xx is a fault of ours.
      const level = res.statusCode === 503 ? 'warn' : res.statusCode >= 500 ? 'error' : 'info';
      requestLogger[level](
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
