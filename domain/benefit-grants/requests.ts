// What sellers and customers ask of grants directly: a benefit's grants listed, the account a
// customer's GitHub or Discord grant goes to.
import { transaction, type Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Caller } from '../access/rules.js';
import { findBenefitFor } from '../benefits/service.js';
import type { BenefitGrant, BenefitGrantListQuery, BenefitGrantWithBenefit } from '../benefits/schemas.js';
import { benefitView } from '../benefits/views.js';
import { findLinkedAccount } from '../customer-accounts/repository.js';
import { markBenefitGrantsStale } from '../customers/repository.js';
import { PLATFORM_NAMES, PLATFORM_OF_BENEFIT_TYPE } from '../customer-accounts/rules.js';
import { InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import { listGrants, requestGrantAccountMoves } from './repository.js';
import { grantView } from './service.js';

export async function listBenefitGrants(db: Db, caller: Caller, id: string, query: BenefitGrantListQuery) {
  const benefit = await findBenefitFor(db, caller, id);
  const where: Prisma.BenefitGrantWhereInput = { benefitId: benefit.id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  if (query.is_granted === true) Object.assign(where, { grantedAt: { not: null }, revokedAt: null });
  if (query.is_granted === false) where.OR = [{ grantedAt: null }, { revokedAt: { not: null } }];
  const [rows, total] = await listGrants(db, where, pageToSkipTake(query));
  const benefitOfGrants = benefitView(benefit);
  return paginated(
    rows.map((row): BenefitGrantWithBenefit => ({
      ...(grantView(row, row.customer) as unknown as BenefitGrant),
      benefit: benefitOfGrants,
    })),
    total,
    query,
  );
}

/**
 * The customer picks the account a GitHub or Discord grant goes to (the portal's grant PATCH): one
 * of their linked accounts. Grants that went to another move to it; a waiting one goes ahead.
 */
export async function chooseGrantAccount(
  db: Db,
  grant: { customerId: string; benefitId: string; benefitType: string },
  accountId: string,
): Promise<void> {
  const platform = PLATFORM_OF_BENEFIT_TYPE[grant.benefitType];
  if (!platform) throw new Error(`${grant.benefitType} benefits are not granted to a linked account`);
  const linked = await findLinkedAccount(db, grant.customerId, platform);
  if (linked?.accountId !== accountId) {
    throw new InvalidFieldError(
      ['body', 'properties', 'account_id'],
      `This is not a ${PLATFORM_NAMES[platform]} account you linked: connect it first.`,
    );
  }
  await transaction(db, async ({ prisma }) => {
    await requestGrantAccountMoves(
      prisma,
      { customerId: grant.customerId, benefitId: grant.benefitId },
      accountId,
    );
    await markBenefitGrantsStale(prisma, [grant.customerId]);
  });
}
