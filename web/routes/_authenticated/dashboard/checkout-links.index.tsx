import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { checkoutLinksQuery, discountsQuery, productsQuery } from '../../../catalog/queries';
import { Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { DeleteButton, ResourceCard, ResourceList } from '../../../resources/resource-page';
import { EmptyHint } from '../../../sales/list-controls';
import { CheckoutLinkForm } from './-components/checkout-link-form';
import { CopyUrl, linkName } from './-components/checkout-link-url';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/checkout-links/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (!organizationId) return;
    prefetch(queryClient, checkoutLinksQuery(organizationId));
    prefetch(queryClient, productsQuery(organizationId, false));
    prefetch(queryClient, discountsQuery(organizationId));
  },
  component: CheckoutLinksPage,
});

function CheckoutLinksPage() {
  return (
    <>
      <PageTitle title="Checkout links" />
      <CheckoutLinksPageContent />
    </>
  );
}

function CheckoutLinksPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its checkout links.</p>;
  return <CheckoutLinks organizationId={organizationId} />;
}

function CheckoutLinks({ organizationId }: { organizationId: string }) {
  const [error, setError] = useState<string | null>(null);
  const links = useQuery(checkoutLinksQuery(organizationId));
  return (
    <>
      <CheckoutLinkForm organizationId={organizationId} />
      <ResourceCard title="Checkout links" error={links.error?.message ?? error} items={links.data?.items}>
        {links.data?.items.length === 0 ? (
          <EmptyHint>No checkout links yet. Create one above and share its URL with your buyers.</EmptyHint>
        ) : null}
        <ResourceList items={links.data?.items} rowTestId="checkout-link-row">
          {(link) => (
            <>
              <Link to="/dashboard/checkout-links/$linkId" params={{ linkId: link.id }}>
                <strong>
                  <Truncated text={linkName(link)} />
                </strong>
              </Link>{' '}
              <code>{link.url}</code> <CopyUrl url={link.url} />{' '}
              <DeleteButton
                label={`Delete link ${link.label ?? link.id}`}
                question="Delete this link? It stops working at once."
                path={`/v1/checkout-links/${link.id}`}
                listKey={['checkout-links', organizationId]}
                onError={setError}
              />
            </>
          )}
        </ResourceList>
      </ResourceCard>
    </>
  );
}
