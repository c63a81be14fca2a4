import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { deleteResource } from '../../../api';
import { checkoutLinksQuery, discountsQuery, productsQuery } from '../../../catalog/queries';
import { ConfirmButton } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import { CheckoutLinkForm } from './-components/checkout-link-form';

export const Route = createFileRoute('/_authenticated/dashboard/checkout-links')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (!organizationId) return;
    prefetch(queryClient, checkoutLinksQuery(organizationId));
    prefetch(queryClient, productsQuery(organizationId, false));
    prefetch(queryClient, discountsQuery(organizationId));
  },
  component: CheckoutLinksPage,
});

function CopyUrl({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
    >
      {copied ? 'Copied' : 'Copy URL'}
    </button>
  );
}

function CheckoutLinksPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its checkout links.</p>;
  return <CheckoutLinks organizationId={organizationId} />;
}

function CheckoutLinks({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const links = useQuery(checkoutLinksQuery(organizationId));
  return (
    <>
      <CheckoutLinkForm organizationId={organizationId} />
      <ResourceCard title="Checkout links" error={links.error?.message ?? error} items={links.data?.items}>
        <ResourceList items={links.data?.items} rowTestId="checkout-link-row">
          {(link) => (
            <>
              <strong>{link.label ?? link.products.map((product) => product.name).join(', ')}</strong>{' '}
              <code>{link.url}</code> <CopyUrl url={link.url} />{' '}
              <ConfirmButton
                label={`Delete link ${link.label ?? link.id}`}
                text="Delete"
                question="Delete this link? It stops working at once."
                onConfirm={async () => {
                  await deleteResource(`/v1/checkout-links/${link.id}`).catch((failure: Error) =>
                    setError(failure.message),
                  );
                  await queryClient.invalidateQueries({ queryKey: ['checkout-links', organizationId] });
                }}
              />
            </>
          )}
        </ResourceList>
      </ResourceCard>
    </>
  );
}
