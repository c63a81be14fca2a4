// The signed-in customer's files (Polar's portal `downloadables`): the list with links valid 10
// minutes, and following a link, which takes no session (the signed link is the credential).
import { z } from 'zod';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import {
  followDownloadLink,
  listPortalDownloadables,
} from '../../../domain/customer-portal/downloadables.js';
import { downloadableListQuerySchema, downloadableSchema } from '../../../domain/customer-portal/schemas.js';
import { listResourceSchema } from '../../../domain/platform/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

/** `<downloadable id>.<expiry ms>.<signature>` (domain/downloadables/rules.ts). */
const tokenParamsSchema = z.object({
  token: z
    .string()
    .regex(
      /^[0-9a-f-]{36}\.[0-9]{13}\.[A-Za-z0-9_-]{43}$/,
      'Not a download link: open your downloads for a new one.',
    ),
});

export function registerPortalDownloadableOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/downloadables/',
      operationId: 'customer_portal:downloadables:list',
      summary: "List the customer's files, with download links valid 10 minutes",
      tag,
      query: downloadableListQuerySchema,
      response: listResourceSchema(downloadableSchema),
    },
    ({ customer, query }) => listPortalDownloadables(ctx, customer, query),
  );
  api.addPublic(
    {
      method: 'get',
      path: '/customer-portal/downloadables/{token}',
      operationId: 'customer_portal:downloadables:get',
      summary: 'Follow a download link (302 to the file)',
      tag,
      params: tokenParamsSchema,
      errors: ['BadRequest', 'ResourceNotFound', 'ResourceUnavailable'],
    },
    async ({ params, res }) => {
      res.redirect(302, await followDownloadLink(ctx, params.token));
    },
  );
}
