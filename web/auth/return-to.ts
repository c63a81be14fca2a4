import { z } from 'zod';

/**
 * Where a page that signs someone in sends them afterwards: a path of this site only. `//host` and
 * `/\host` are read by browsers as another site, so they are refused (no open redirect).
 */
export const returnToSchema = z
  .string()
  .max(4096)
  .regex(/^\/(?![/\\])/);

/** The search of the sign-in, sign-up and two-factor pages: a bad `return_to` is dropped, not an error. */
export const returnToSearchSchema = z.object({ return_to: returnToSchema.optional().catch(undefined) });
export type ReturnToSearch = z.output<typeof returnToSearchSchema>;

/** The search that carries `return_to` on to the next page of the sign-in, only when there is one. */
export const carryReturnTo = (returnTo: string | undefined): ReturnToSearch =>
  returnTo ? { return_to: returnTo } : {};
