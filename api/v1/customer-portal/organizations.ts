// The seller's public portal page (Polar's portal `organizations`): anyone may read it by slug.
import { z } from 'zod';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import { getPortalOrganization } from '../../../domain/customer-portal/organization.js';
import { customerOrganizationSchema } from '../../../domain/customer-portal/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

const slugParamsSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,128}$/, 'Not an organization slug.'),
});

export function registerPortalOrganizationOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addPublic(
    {
      method: 'get',
      path: '/customer-portal/organizations/{slug}',
      operationId: 'customer_portal:organizations:get',
      summary: "The seller's portal page: who they are and what they sell",
      tag,
      params: slugParamsSchema,
      response: customerOrganizationSchema,
      errors: ['ResourceNotFound'],
    },
    ({ params }) => getPortalOrganization(ctx, params.slug),
  );
}
