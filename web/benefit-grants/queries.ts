import { queryOptions } from '@tanstack/react-query';
import {
  benefitGrantSchema,
  benefitSchema,
  type Benefit,
  type BenefitGrant,
} from '../../domain/benefits/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson } from '../api';

export const GRANTS_PAGE_SIZE = 20;
/** A grant is given by its workflow a moment after the purchase: pages poll while one is on its way. */
export const GRANT_POLL_MS = 2_000;
/** The API's page limit; a customer holds far fewer benefits, and far fewer grants of one. */
const ALL = 'limit=100';

const grantListSchema = listResourceSchema(benefitGrantSchema);

/** A page of one benefit's grants, newest first, with their customers. */
export const benefitGrantsQuery = (benefitId: string, page: number) =>
  queryOptions({
    queryKey: ['benefit-grants', benefitId, page],
    queryFn: () =>
      getJson(`/v1/benefits/${benefitId}/grants?page=${page}&limit=${GRANTS_PAGE_SIZE}`, grantListSchema),
  });

export type CustomerGrant = BenefitGrant & { benefit: Benefit };

/**
 * Every grant of one customer, newest first. The API lists grants per benefit only: the benefits
 * the customer has a grant of come first (`customer_id`, our extension of the benefits list), then
 * each one's grants for them, so the calls are as many as the customer's benefits, not the catalog's.
 */
export const customerGrantsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['benefit-grants', 'customer', customerId],
    queryFn: async (): Promise<CustomerGrant[]> => {
      const benefits = await getJson(
        `/v1/benefits/?customer_id=${customerId}&${ALL}`,
        listResourceSchema(benefitSchema),
      );
      const grants = await Promise.all(
        benefits.items.map(async (benefit) => {
          const list = await getJson(
            `/v1/benefits/${benefit.id}/grants?customer_id=${customerId}&${ALL}`,
            grantListSchema,
          );
          return list.items.map((grant) => ({ ...grant, benefit }));
        }),
      );
      return grants.flat().sort((a, b) => b.created_at.localeCompare(a.created_at));
    },
  });
