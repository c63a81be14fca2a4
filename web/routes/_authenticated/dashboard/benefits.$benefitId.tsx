import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import type { Benefit } from '../../../../domain/benefits/schemas';
import { GrantDetails, GrantStatusBadge, isGrantPending } from '../../../benefit-grants/status';
import { benefitGrantsQuery, GRANT_POLL_MS } from '../../../benefit-grants/queries';
import { GrantSource } from '../../../benefit-grants/source';
import { benefitGrantWorkflowId } from '../../../../domain/benefit-grants/rules';
import { WorkflowLink } from '../../../system/workflow-link';
import { benefitQuery } from '../../../catalog/queries';
import { Card, ErrorNote, formatDateTime, Pager, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { BENEFIT_TYPE_LABELS, describeBenefit } from './-components/benefit-labels';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/benefits/$benefitId')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { benefitId }, deps: { page } }) => {
    prefetch(queryClient, benefitQuery(benefitId));
    prefetch(queryClient, benefitGrantsQuery(benefitId, page));
  },
  component: BenefitPage,
});

function BenefitPage() {
  const { benefitId } = Route.useParams();
  const benefit = useQuery(benefitQuery(benefitId));
  return (
    <>
      <PageTitle title={benefit.data?.description ?? 'Benefit'} />
      <BenefitPageContent />
    </>
  );
}

function BenefitPageContent() {
  const { benefitId } = Route.useParams();
  const benefit = useQuery(benefitQuery(benefitId));
  return (
    <>
      <p>
        <Link to="/dashboard/benefits">← All benefits</Link>
      </p>
      {benefit.error ? (
        <ErrorNote message={benefit.error.message} />
      ) : !benefit.data ? (
        <p>Loading…</p>
      ) : (
        <>
          <BenefitDetails benefit={benefit.data} />
          <BenefitGrants benefit={benefit.data} />
        </>
      )}
    </>
  );
}

function BenefitDetails({ benefit }: { benefit: Benefit }) {
  const note = benefit.type === 'custom' ? (benefit.properties.note as string | null) : null;
  const gives = describeBenefit(benefit);
  return (
    <Card title="Details">
      <dl className="details" data-testid="benefit-details">
        <dt>Type</dt>
        <dd>{BENEFIT_TYPE_LABELS[benefit.type]}</dd>
        {gives ? (
          <>
            <dt>Gives</dt>
            <dd>{gives}</dd>
          </>
        ) : null}
        {benefit.type === 'custom' ? (
          <>
            <dt>Note to the customer</dt>
            <dd>{note ?? '—'}</dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>{formatDateTime(benefit.created_at)}</dd>
      </dl>
    </Card>
  );
}

function BenefitGrants({ benefit }: { benefit: Benefit }) {
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const grants = useQuery({
    ...benefitGrantsQuery(benefit.id, page),
    refetchInterval: (query) => (query.state.data?.items.some(isGrantPending) ? GRANT_POLL_MS : false),
  });
  const total = grants.data?.pagination.total_count ?? 0;
  return (
    <ResourceCard
      title="Grants"
      error={grants.error?.message ?? null}
      items={grants.data?.items}
      empty="No customer has been granted this benefit yet."
      footer={
        grants.data && total > 0 ? (
          <>
            <p className="muted" data-testid="grant-count">
              {total === 1 ? '1 grant' : `${total} grants`}
            </p>
            <Pager
              page={page}
              maxPage={grants.data.pagination.max_page}
              onPage={(next) => void navigate({ search: { page: next } })}
            />
          </>
        ) : null
      }
    >
      <ResourceTable
        items={grants.data?.items}
        rowTestId="benefit-grant-row"
        columns={[
          {
            header: 'Customer',
            cell: (grant) => (
              <Link to="/dashboard/customers/$customerId" params={{ customerId: grant.customer_id }}>
                <Truncated text={grant.customer.email} />
              </Link>
            ),
          },
          { header: 'Status', cell: (grant) => <GrantStatusBadge grant={grant} /> },
          { header: 'Details', cell: (grant) => <GrantDetails grant={grant} type={benefit.type} /> },
          { header: 'From', cell: (grant) => <GrantSource grant={grant} /> },
          {
            header: 'Workflow',
            cell: (grant) => (
              <WorkflowLink inTable workflowId={benefitGrantWorkflowId(grant.customer_id, benefit.id)} />
            ),
          },
        ]}
      />
    </ResourceCard>
  );
}
