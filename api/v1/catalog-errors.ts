import { z } from 'zod';
import { CatalogError } from '../../domain/catalog/errors.js';
import { AppError, ValidationFailed } from '../http/errors.js';

/** Maps the catalog domains' error to the API's (products, files, custom fields, meters). */
export function rethrowCatalogError(error: unknown): never {
  if (error instanceof CatalogError) {
    switch (error.reason) {
      case 'not_found':
        throw new AppError('ResourceNotFound', error.message);
      case 'not_permitted':
        throw new AppError('NotPermitted', error.message);
      case 'invalid':
        throw new ValidationFailed(error.issues);
    }
  }
  throw error;
}

/** Polar's list filters that take one id or several (`?organization_id=a&organization_id=b`). */
export const idFilterSchema = z.union([z.uuid(), z.array(z.uuid())]).optional();

export const idParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });
