import type { Request } from 'express';
import type { z } from 'zod';
import { AppError, InvalidFieldError, invalidInputFromZod } from '../../domain/platform/errors.js';

function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: 'body' | 'query' | 'path',
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInputFromZod(result.error, location);
  return result.data;
}

/** Whether the request carries bytes, parsed or not (RFC 9110 §8.6: a length, or chunks). */
const sendsBytes = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * An operation with a body requires one, as the OpenAPI document says and as Polar answers
 * (FastAPI's 422 `missing` at `body`). Bytes the JSON parser left alone were sent as another
 * media type: 415.
 */
export const parseBody = <S extends z.ZodType>(schema: S, req: Request) => {
  if (req.body === undefined) {
    if (sendsBytes(req)) throw new AppError('UnsupportedMediaType');
    throw new InvalidFieldError(['body'], 'Field required', 'missing');
  }
  return parseWith(schema, req.body, 'body');
};
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.query, 'query');
export const parsePath = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.params, 'path');
