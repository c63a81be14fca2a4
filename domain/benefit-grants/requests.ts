// What sellers and customers ask of grants directly: a benefit's grants listed, the account a
// customer's GitHub or Discord grant goes to.
import { transaction, type Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Caller } from '../access/rules.js';
import { findBenefitFor } from '../benefits/service.js';
import { organizationsToList } from '../access/service.js';
import type {
  BenefitGrant,
  BenefitGrantListQuery,
  BenefitDownloadableFile,
  BenefitGrantWithBenefit,
  OrganizationBenefitGrantListQuery,
} from '../benefits/schemas.js';
import { benefitView } from '../benefits/views.js';
import { findLinkedAccount } from '../customer-accounts/repository.js';
import { downloadStatsOfBenefit } from '../downloadables/repository.js';
import { findFilesOfOrganization } from '../files/repository.js';
import { fileView } from '../files/views.js';
import type { PageQuery } from '../platform/schemas.js';
import { markBenefitGrantsStale } from '../customers/repository.js';
import { PLATFORM_NAMES, PLATFORM_OF_BENEFIT_TYPE } from '../customer-accounts/rules.js';
import { InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { listGrants, listGrantsWithBenefit, requestGrantAccountMoves } from './repository.js';
import { grantView } from './service.js';

export async function listBenefitGrants(db: Db, caller: Caller, id: string, query: BenefitGrantListQuery) {
  const benefit = await findBenefitFor(db, caller, id);
  const where: Prisma.BenefitGrantWhereInput = { benefitId: benefit.id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  Object.assign(where, isGrantedFilter(query.is_granted));
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

const isGrantedFilter = (isGranted: boolean | undefined): Prisma.BenefitGrantWhereInput =>
  isGranted === undefined
    ? {}
    : isGranted
      ? { grantedAt: { not: null }, revokedAt: null }
      : { OR: [{ grantedAt: null }, { revokedAt: { not: null } }] };

const GRANT_SORT_COLUMNS = {
  created_at: 'createdAt',
  granted_at: 'grantedAt',
  revoked_at: 'revokedAt',
} as const;

/**
 * The grants of every benefit of the organizations the caller may list (Polar's
 * `benefit-grants:list`); deleted benefits and customers have none left to show.
 */
export async function listOrganizationBenefitGrants(
  db: Db,
  caller: Caller,
  query: OrganizationBenefitGrantListQuery,
) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const and: Prisma.BenefitGrantWhereInput[] = [
    {
      benefit: { organizationId: { in: organizationIds }, deletedAt: null },
      customer: { deletedAt: null },
    },
    isGrantedFilter(query.is_granted),
  ];
  if (query.customer_id) and.push({ customerId: { in: query.customer_id } });
  if (query.external_customer_id) {
    and.push({ customer: { externalId: { in: query.external_customer_id } } });
  }
  const orderBy: Prisma.BenefitGrantOrderByWithRelationInput[] = [
    ...parseSorting<keyof typeof GRANT_SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
      ({ field, direction }) =>
        field === 'created_at'
          ? { createdAt: direction }
          : // A grant never granted or revoked sorts after the others either way.
            { [GRANT_SORT_COLUMNS[field]]: { sort: direction, nulls: 'last' as const } },
    ),
    { id: 'asc' },
  ];
  const [rows, total] = await listGrantsWithBenefit(db, { AND: and }, orderBy, pageToSkipTake(query));
  return paginated(
    rows.map((row): BenefitGrantWithBenefit => ({
      ...(grantView(row, row.customer) as unknown as BenefitGrant),
      benefit: benefitView(row.benefit),
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

/**
 * A downloadables benefit's files, in the benefit's order (archived ones too: holders may still
 * have them), with how often its holders downloaded each. Other types have no files.
 */
export async function listBenefitFiles(
  db: Db,
  caller: Caller,
  id: string,
  query: PageQuery,
  publicUrl: string,
) {
  const benefit = await findBenefitFor(db, caller, id);
  const ids =
    benefit.type === 'downloadables' ? ((benefit.properties as { files?: string[] }).files ?? []) : [];
  const { skip, take } = pageToSkipTake(query);
  const pageIds = ids.slice(skip, skip + take);
  const rows = await findFilesOfOrganization(db, benefit.organizationId, pageIds);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const stats = await downloadStatsOfBenefit(db, benefit.id);
  const items = pageIds.flatMap((fileId): BenefitDownloadableFile[] => {
    const row = byId.get(fileId);
    const file = row ? fileView(row, publicUrl) : null;
    if (!file || file.service !== 'downloadable') return [];
    return [{ ...file, ...(stats.get(fileId) ?? { downloads: 0, downloaders: 0 }) }];
  });
  return paginated(items, ids.length, query);
}
