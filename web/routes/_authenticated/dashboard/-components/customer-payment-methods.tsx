import { useQuery } from '@tanstack/react-query';
import type { CustomerPaymentMethod } from '../../../../../domain/payment-methods/schemas';
import { formatDateTime } from '../../../../components';
import { customerPaymentMethodsQuery } from '../../../../customers/queries';
import { describePaymentMethod } from '../../../../portal/format';
import { ResourceCard, ResourceTable } from '../../../../resources/resource-page';

/** The portal's words for a card ("Visa •••• 4242, expires 08/2031"), from the seller's shape. */
export function describeCard(method: CustomerPaymentMethod) {
  const common = { id: method.id, created_at: method.created_at, default: method.is_default };
  return describePaymentMethod(
    'method_metadata' in method
      ? { ...common, type: 'card', card: method.method_metadata }
      : { ...common, type: method.type },
  );
}

/** The cards the customer saved (at checkout or in the portal), as they see them in the portal. */
export function CustomerPaymentMethods({ customerId }: { customerId: string }) {
  const methods = useQuery(customerPaymentMethodsQuery(customerId));
  return (
    <ResourceCard
      title="Payment methods"
      error={methods.error?.message ?? null}
      items={methods.data?.items}
      count={{ total: methods.data?.pagination.total_count, one: 'card', other: 'cards' }}
      empty="No saved cards. A card is saved when the customer subscribes or adds one in the portal."
    >
      <ResourceTable
        items={methods.data?.items}
        rowTestId="customer-payment-method-row"
        columns={[
          {
            header: 'Card',
            testId: 'customer-payment-method-label',
            cell: (method) => describeCard(method).text,
          },
          { header: 'Default', cell: (method) => (method.is_default ? 'Default' : '—') },
          { header: 'Saved', cell: (method) => formatDateTime(method.created_at) },
        ]}
      />
    </ResourceCard>
  );
}
