import { queryOptions, useQuery } from '@tanstack/react-query';
import { processorStatusSchema } from '../../domain/payments/schemas';
import { getJson } from '../api';
import { formatDateTime } from '../components';
import { organizationKeys } from './queries';
import { useCanManageActiveOrganization } from './roles';

/** How often an open dashboard asks again: a fixed key clears the banner within a minute or so. */
const PROCESSOR_STATUS_POLL_MS = 60_000;

export const processorStatusQuery = (organizationId: string) =>
  queryOptions({
    queryKey: [...organizationKeys.all(organizationId), 'processor-status'],
    queryFn: () => getJson(`/v1/organizations/${organizationId}/processor-status`, processorStatusSchema),
    refetchInterval: PROCESSOR_STATUS_POLL_MS,
  });

const PROCESSOR_NAMES: Record<string, string> = { stripe: 'Stripe', sandbox: 'The sandbox processor' };

/**
 * The payment processor refuses the deployment's key or account (docs/payments.md, "Retry
 * contract"): payments, refunds and renewals are held back and retried until it is fixed. Owners
 * and admins see it on every page (the API refuses members, who could not fix it); it goes away
 * once a held-back step goes through.
 */
export function ProcessorProblemBanner({
  organizationId,
  userId,
}: {
  organizationId: string;
  userId: string;
}) {
  const canManage = useCanManageActiveOrganization(userId);
  const status = useQuery({ ...processorStatusQuery(organizationId), enabled: canManage === true });
  const problem = status.data?.configuration_problem;
  if (!canManage || !problem) return null;
  const processor = PROCESSOR_NAMES[problem.processor] ?? problem.processor;
  return (
    <div className="notice processor-problem" role="alert" data-testid="processor-problem">
      <p>
        <strong>
          Payments are held back: the payment processor refuses this deployment’s API key or account.
        </strong>
      </p>
      <p>
        {processor} answered “{problem.message}” ({problem.code}), first at {formatDateTime(problem.since)}{' '}
        and last at {formatDateTime(problem.last_seen_at)}. Checkouts, refunds and renewals are tried again,
        at most half an hour apart, and go through once whoever runs this deployment fixes the key or
        activates the account.
      </p>
    </div>
  );
}
