import type { RequestHandler } from 'express';

/**
 * Refuses a body over `maxBytes` before anything reads it, for handlers that read bodies
 * themselves (Better Auth reads its requests whole, without a limit). A body without a declared
 * length (chunked) is refused too: browsers and Better Auth's client always declare one.
 * Answers in Better Auth's error shape, `{ code, message }`.
 */
export function limitBodySize(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = req.get('content-length');
    if (declared === undefined) {
      if (req.get('transfer-encoding') === undefined) return next();
      res.set('Connection', 'close').status(411).json({
        code: 'LENGTH_REQUIRED',
        message: 'Send the request body with a Content-Length.',
      });
      return;
    }
    if (Number(declared) > maxBytes) {
      res
        .set('Connection', 'close')
        .status(413)
        .json({
          code: 'PAYLOAD_TOO_LARGE',
          message: `The request body may be at most ${Math.floor(maxBytes / 1024)} KB.`,
        });
      return;
    }
    next();
  };
}
