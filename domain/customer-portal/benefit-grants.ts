// What the signed-in customer was granted (Polar's portal `benefit_grant`): the grants they hold or
// wait for, as a holder sees the benefit, and the one change they may make (the linked account a
// GitHub or Discord grant goes to).

import type { Prisma } from '../../generated/prisma/client.js';
import { benefitView } from '../benefits/views.js';
import {
  findGrantWithBenefit,
  listGrantsWithBenefit,
  type GrantWithBenefitRow,
} from '../benefit-grants/repository.js';
import { grantView } from '../benefit-grants/service.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { chooseGrantAccount } from '../benefit-grants/requests.js';
import { oauthAccountsOf } from '../customer-accounts/service.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { organizationWire, type PortalContext } from './context.js';
import { portalCustomerView } from './customer.js';
import {
  customerBenefitGrantSchema,
  type CustomerBenefitGrant,
  type CustomerBenefitGrantListQuery,
  type CustomerBenefitGrantUpdate,
} from './schemas.js';

/**
 * What the customer holds, or waits for (a grant that needs their linked account): revoked grants
 * and meter credits not yet credited are not theirs to see.
 */
const visibleGrants = (customer: CustomerCaller): Prisma.BenefitGrantWhereInput => ({
  customerId: customer.customerId,
  desired: 'granted',
  benefit: { deletedAt: null, organizationId: customer.organizationId },
  OR: [
    { grantedAt: { not: null }, revokedAt: null },
    { benefit: { type: { in: ['github_repository', 'discord'] } } },
  ],
});

/** The benefit as its holder sees it: only the files still offered, no Discord token. */
function subscriberProperties(benefit: GrantWithBenefitRow['benefit']): Record<string, unknown> {
  const properties = benefit.properties as Record<string, unknown>;
  if (benefit.type !== 'downloadables') return properties;
  const { files, archived } = properties as { files: string[]; archived: Record<string, boolean> };
  return { active_files: files.filter((file) => !archived[file]) };
}

async function customerGrantViews(ctx: PortalContext, customer: CustomerCaller, rows: GrantWithBenefitRow[]) {
  const organization = await organizationWire(ctx.db, customer.organizationId);
  // Every grant here is the signed-in customer's.
  const oauthAccounts = await oauthAccountsOf(ctx.db, customer.customerId);
  return rows.map((row): CustomerBenefitGrant => {
    const { error: _error, ...grant } = grantView(row, row.customer) as Record<string, unknown>;
    return customerBenefitGrantSchema.parse({
      ...grant,
      customer: portalCustomerView(row.customer, oauthAccounts),
      benefit: {
        ...benefitView(row.benefit),
        organization,
        properties: subscriberProperties(row.benefit),
      },
    });
  });
}

const GRANT_SORTS: Record<
  string,
  (direction: 'asc' | 'desc') => Prisma.BenefitGrantOrderByWithRelationInput
> = {
  granted_at: (direction) => ({ grantedAt: direction }),
  type: (direction) => ({ benefit: { type: direction } }),
  organization: (direction) => ({ createdAt: direction }),
  // A benefit may be granted through several products, so no one product's order of benefits
  // applies: the grants follow their benefits in the order the seller made them.
  product_benefit: (direction) => ({ benefit: { createdAt: direction } }),
};

export async function listPortalGrants(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerBenefitGrantListQuery,
) {
  const where: Prisma.BenefitGrantWhereInput = { AND: [visibleGrants(customer)] };
  const and = where.AND as Prisma.BenefitGrantWhereInput[];
  if (query.type) and.push({ benefit: { type: { in: query.type } } });
  if (query.benefit_id) and.push({ benefitId: { in: query.benefit_id } });
  if (query.order_id) and.push({ orderId: { in: query.order_id } });
  if (query.subscription_id) and.push({ subscriptionId: { in: query.subscription_id } });
  if (query.checkout_id) and.push({ id: { in: [] } });
  const orderBy = [
    ...parseSorting<string>(query.sorting ?? ['-granted_at']).map(({ field, direction }) =>
      GRANT_SORTS[field]!(direction),
    ),
    { id: 'asc' as const },
  ];
  const [rows, total] = await listGrantsWithBenefit(ctx.db, where, orderBy, pageToSkipTake(query));
  return paginated(await customerGrantViews(ctx, customer, rows), total, query);
}

async function findPortalGrant(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const row = await findGrantWithBenefit(ctx.db, { AND: [{ id }, visibleGrants(customer)] });
  if (!row) throw new AppError('ResourceNotFound', 'Benefit grant not found');
  return row;
}

export async function getPortalGrant(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return (await customerGrantViews(ctx, customer, [await findPortalGrant(ctx, customer, id)]))[0]!;
}

/**
 * Only GitHub and Discord grants take a change: the linked account they go to. Every other type
 * has nothing to change.
 */
export async function updatePortalGrant(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
  input: CustomerBenefitGrantUpdate,
): Promise<CustomerBenefitGrant> {
  const row = await findPortalGrant(ctx, customer, id);
  if (input.benefit_type !== row.benefit.type) {
    throw new InvalidFieldError(['body', 'benefit_type'], `This grant is of a ${row.benefit.type} benefit.`);
  }
  if (input.benefit_type !== 'github_repository' && input.benefit_type !== 'discord') {
    return (await customerGrantViews(ctx, customer, [row]))[0]!;
  }
  await chooseGrantAccount(
    ctx.db,
    { customerId: row.customerId, benefitId: row.benefitId, benefitType: row.benefit.type },
    input.properties.account_id,
  );
  return getPortalGrant(ctx, customer, id);
}
