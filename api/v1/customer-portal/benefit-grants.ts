// What the signed-in customer was granted (Polar's portal `benefit-grants`): list, read, and choose
// the linked account a GitHub or Discord grant goes to.
import {
  getPortalGrant,
  listPortalGrants,
  updatePortalGrant,
} from '../../../domain/customer-portal/benefit-grants.js';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import {
  customerBenefitGrantListQuerySchema,
  customerBenefitGrantSchema,
  customerBenefitGrantUpdateSchema,
} from '../../../domain/customer-portal/schemas.js';
import { idParamsSchema, listResourceSchema } from '../../../domain/platform/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalBenefitGrantOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/benefit-grants/',
      operationId: 'customer_portal:benefit-grants:list',
      summary: 'List what the customer was granted',
      tag,
      query: customerBenefitGrantListQuerySchema,
      response: listResourceSchema(customerBenefitGrantSchema),
    },
    ({ customer, query }) => listPortalGrants(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/benefit-grants/{id}',
      operationId: 'customer_portal:benefit-grants:get',
      summary: 'Get a benefit grant',
      tag,
      params: idParamsSchema,
      response: customerBenefitGrantSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalGrant(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/benefit-grants/{id}',
      operationId: 'customer_portal:benefit-grants:update',
      summary: 'Update a benefit grant (the account a GitHub or Discord benefit goes to)',
      tag,
      params: idParamsSchema,
      body: customerBenefitGrantUpdateSchema,
      response: customerBenefitGrantSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params, body }) => updatePortalGrant(ctx, customer, params.id, body),
  );
}
