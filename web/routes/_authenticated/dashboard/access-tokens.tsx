import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { deleteResource } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ConfirmButton, formatDateTime, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { accessTokensQuery, organizationKeys } from '../../../organizations/queries';
import { canManage } from '../../../organizations/roles';
import type { ActiveOrganization } from '../../../organizations/types';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { AccessTokenForm, NewAccessToken } from './-components/access-token-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/access-tokens')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, accessTokensQuery(organizationId));
  },
  component: AccessTokensPage,
});

function AccessTokensPage() {
  return (
    <>
      <PageTitle title="Access tokens" />
      <AccessTokensPageContent />
    </>
  );
}

function AccessTokensPageContent() {
  const userId = Route.useRouteContext().session.user.id;
  const organization = authClient.useActiveOrganization().data;
  if (!organization) return <p>Create or choose an organization to manage its access tokens.</p>;
  const role = organization.members.find((member) => member.userId === userId)?.role;
  if (!canManage(role)) return <p>Only owners and admins can manage access tokens.</p>;
  return <AccessTokens organization={organization} />;
}

function AccessTokens({ organization }: { organization: ActiveOrganization }) {
  const queryClient = useQueryClient();
  const tokens = useQuery(accessTokensQuery(organization.id));
  const [newToken, setNewToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: organizationKeys.accessTokens(organization.id) });

  async function revoke(id: string) {
    setError(null);
    await deleteResource(`/v1/organization-access-tokens/${id}`).catch((failure: unknown) =>
      setError(failure instanceof Error ? failure.message : String(failure)),
    );
    await refresh();
  }

  const items = tokens.data?.items;
  return (
    <>
      <Card title="Create an access token">
        <p>Access tokens call the payments API (/v1) for {organization.name} as a Bearer token.</p>
        {newToken ? (
          <NewAccessToken token={newToken} onDone={() => setNewToken(null)} />
        ) : (
          <AccessTokenForm
            organizationId={organization.id}
            onCreated={(token) => {
              setNewToken(token);
              void refresh();
            }}
          />
        )}
      </Card>
      <ResourceCard
        title="Access tokens"
        error={error ?? tokens.error?.message ?? null}
        items={items}
        empty="No access tokens yet."
      >
        {items?.length ? (
          <ResourceTable
            items={items}
            rowTestId="access-token-row"
            columns={[
              { header: 'Comment', cell: (token) => <Truncated text={token.comment} /> },
              { header: 'Created', cell: (token) => formatDateTime(token.created_at) },
              { header: 'Expires', cell: (token) => formatDateTime(token.expires_at, 'never') },
              { header: 'Last used', cell: (token) => formatDateTime(token.last_used_at, 'never') },
              {
                header: <span className="visually-hidden">Actions</span>,
                cell: (token) => (
                  <ConfirmButton
                    label={`Revoke ${token.comment}`}
                    text="Revoke"
                    question={`Revoke “${token.comment}”? Anything using it stops working at once.`}
                    onConfirm={() => revoke(token.id)}
                  />
                ),
              },
            ]}
          />
        ) : null}
      </ResourceCard>
    </>
  );
}
