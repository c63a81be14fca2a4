import type { Request } from 'express';
import type { z } from 'zod';
import { invalidInputFromZod } from '../../domain/platform/errors.js';

function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: 'body' | 'query' | 'path',
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInputFromZod(result.error, location);
  return result.data;
}

export const parseBody = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.body ?? {}, 'body');
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.query, 'query');
export const parsePath = <S extends z.ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.params, 'path');
