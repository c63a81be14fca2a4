// The seller's benefit grants across every benefit (Polar's `benefit-grants`): who holds what.
import type { Db } from '../../infra/db.js';
import { listOrganizationBenefitGrants } from '../../domain/benefit-grants/requests.js';
import {
  benefitGrantWithBenefitSchema,
  organizationBenefitGrantListQuerySchema,
} from '../../domain/benefits/schemas.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { OperationRegistry } from '../http/operations.js';

export function registerBenefitGrantOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      method: 'get',
      path: '/benefit-grants/',
      operationId: 'benefit-grants:list',
      summary: 'List the grants of every benefit',
      tag: 'benefit-grants',
      // Polar guards them with the benefits' scopes: a grant is part of its benefit.
      scope: 'benefits',
      query: organizationBenefitGrantListQuerySchema,
      response: listResourceSchema(benefitGrantWithBenefitSchema),
      errors: ['NotPermitted'],
    },
    ({ query, caller }) => listOrganizationBenefitGrants(db, caller, query),
  );
}
