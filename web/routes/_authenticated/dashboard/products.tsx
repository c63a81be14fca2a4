import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { productSchema, type Product } from '../../../../domain/products/schemas';
import { sendJson } from '../../../api';
import { describePrice } from '../../../catalog/format';
import { Truncated } from '../../../components';
import { benefitsQuery, customFieldsQuery, metersQuery, productsQuery } from '../../../catalog/queries';
import { prefetch } from '../../../loaders';
import { ManagersOnly, managersOnlyActions } from '../../../organizations/managers-only';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { ResourceCard, ResourceTable, useEditor } from '../../../resources/resource-page';
import { ProductForm } from './-components/product-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/products')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (!organizationId) return;
    // The form's pickers too: it shows with the list.
    prefetch(queryClient, productsQuery(organizationId, false));
    prefetch(queryClient, metersQuery(organizationId));
    prefetch(queryClient, benefitsQuery(organizationId));
    prefetch(queryClient, customFieldsQuery(organizationId));
  },
  component: ProductsPage,
});

function ProductsPage() {
  return (
    <>
      <PageTitle title="Products" />
      <ProductsPageContent />
    </>
  );
}

function ProductsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its products.</p>;
  return <Products organizationId={organizationId} />;
}

function Products({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const editor = useEditor<Product>();
  const [showArchived, setShowArchived] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const products = useQuery(productsQuery(organizationId, showArchived));

  const rowActions = managersOnlyActions<Product>({
    canManage,
    header: 'Actions',
    onEdit: editor.edit,
    more: (product) => (
      <button
        type="button"
        className="secondary"
        aria-label={`${product.is_archived ? 'Unarchive' : 'Archive'} ${product.name}`}
        onClick={() => void setArchived(product, !product.is_archived)}
      >
        {product.is_archived ? 'Unarchive' : 'Archive'}
      </button>
    ),
  });

  async function setArchived(product: Product, isArchived: boolean) {
    try {
      await sendJson('PATCH', `/v1/products/${product.id}`, { is_archived: isArchived }, productSchema);
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
    await queryClient.invalidateQueries({ queryKey: ['products', organizationId] });
  }

  return (
    <>
      <ManagersOnly canManage={canManage} title="Create a product" action="create, edit or archive products">
        <ProductForm
          key={editor.formKey}
          organizationId={organizationId}
          product={editor.editing}
          onDone={editor.onDone}
        />
      </ManagersOnly>
      <ResourceCard
        title="Products"
        toolbar={
          <label className="checkbox">
            <input
              type="checkbox"
              checked={showArchived}
              onChange={(event) => setShowArchived(event.target.checked)}
            />
            Show archived products
          </label>
        }
        error={products.error?.message ?? error}
        items={products.data?.items}
        empty="No products yet."
      >
        <ResourceTable
          items={products.data?.items}
          rowTestId="product-row"
          columns={[
            {
              header: 'Image',
              cell: (product) =>
                product.medias[0] ? (
                  <img
                    src={product.medias[0].public_url}
                    alt={`Image of ${product.name}`}
                    className="thumbnail"
                  />
                ) : null,
            },
            {
              header: 'Name',
              cell: (product) => (
                <>
                  <Truncated text={product.name}>
                    <strong>{product.name}</strong>
                  </Truncated>
                  {product.is_archived ? <span className="badge">Archived</span> : null}
                  {product.description ? (
                    <p className="muted">
                      <Truncated text={product.description} />
                    </p>
                  ) : null}
                </>
              ),
            },
            {
              header: 'Prices',
              cell: (product) => (
                <ul className="plain-list">
                  {product.prices.map((price) => (
                    <li key={price.id} data-testid="product-price">
                      {describePrice(price)}
                    </li>
                  ))}
                </ul>
              ),
            },
            ...rowActions,
          ]}
        />
      </ResourceCard>
    </>
  );
}
