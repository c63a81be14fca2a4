import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { orderSchema, type Order } from '../../../../../domain/orders/schemas';
import { formErrors, sendJson } from '../../../../api';
import { productsQuery } from '../../../../catalog/queries';
import { Card } from '../../../../components';
import { customerPaymentMethodsQuery } from '../../../../customers/queries';
import { focusFirstInvalid, FormField } from '../../../../forms/form-field';
import { formatMoney, readMajorInput } from '../../../../money/format';
import { ManagersOnly } from '../../../../organizations/managers-only';
import { describeCard } from './customer-payment-methods';

const FIELDS = ['product_id', 'amount', 'description', 'payment_method_id'] as const;
type Errors = Partial<Record<(typeof FIELDS)[number] | 'form', string>>;

/**
 * "Charge customer" (docs/orders.md): a draft order of a one-time product, finalized at once on a
 * saved card. A declined charge keeps the draft, so trying again (another card) finalizes the same
 * order instead of making a second one.
 */
export function ChargeCustomer(props: {
  organizationId: string;
  customerId: string;
  canManage: boolean | null;
}) {
  return (
    <ManagersOnly canManage={props.canManage} title="Charge customer" action="charge customers">
      <ChargeCustomerForm organizationId={props.organizationId} customerId={props.customerId} />
    </ManagersOnly>
  );
}

function ChargeCustomerForm({ organizationId, customerId }: { organizationId: string; customerId: string }) {
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const products = useQuery(productsQuery(organizationId, false)).data?.items ?? [];
  const oneTime = products.filter((product) => !product.is_recurring);
  const cards = useQuery(customerPaymentMethodsQuery(customerId)).data?.items ?? [];
  const [productId, setProductId] = useState('');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [cardId, setCardId] = useState('');
  const [draft, setDraft] = useState<Order | null>(null);
  const [paid, setPaid] = useState<Order | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [isBusy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = readMajorInput(amount, 'usd', 'Enter an amount, such as 25.00.');
    const found: Errors = {};
    if (!productId && !draft) found.product_id = 'Choose a product.';
    if (read.error !== null) found.amount = read.error;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    setBusy(true);
    setPaid(null);
    try {
      const order =
        draft ??
        (await sendJson(
          'POST',
          '/v1/orders/',
          {
            organization_id: organizationId,
            customer_id: customerId,
            product_id: productId,
            ...(read.amount !== null ? { amount: read.amount } : {}),
            ...(description.trim() ? { description: description.trim() } : {}),
          },
          orderSchema,
        ));
      setDraft(order);
      const finalized = await sendJson(
        'POST',
        `/v1/orders/${order.id}/finalize`,
        cardId ? { payment_method_id: cardId } : {},
        orderSchema,
      );
      setDraft(null);
      setPaid(finalized);
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
    } catch (failure) {
      // A decline (402) keeps the draft: its words, from the bank, go next to the form.
      const { fields, form: message } = formErrors(failure, FIELDS);
      setErrors({ ...fields, ...(message ? { form: message } : {}) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Charge customer">
      <form ref={form} onSubmit={(event) => void onSubmit(event)} className="stack" noValidate>
        <p className="muted">
          Charges a one-time product to a card the customer saved, without them present.
        </p>
        <FormField label="Product" field="product_id" required error={errors.product_id}>
          {(control) => (
            <select
              {...control}
              value={productId}
              disabled={draft !== null}
              onChange={(event) => setProductId(event.target.value)}
            >
              <option value="">Choose a product</option>
              {oneTime.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Amount (USD, optional: the product's price)" field="amount" error={errors.amount}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={amount}
              disabled={draft !== null}
              onChange={(event) => setAmount(event.target.value)}
            />
          )}
        </FormField>
        <FormField
          label="Description (optional: the product's name)"
          field="description"
          error={errors.description}
        >
          {(control) => (
            <input
              {...control}
              value={description}
              disabled={draft !== null}
              onChange={(event) => setDescription(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Card" field="payment_method_id" error={errors.payment_method_id}>
          {(control) => (
            <select {...control} value={cardId} onChange={(event) => setCardId(event.target.value)}>
              <option value="">The customer's default card</option>
              {cards.map((card) => (
                <option key={card.id} value={card.id}>
                  {describeCard(card).text}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {errors.form ? (
          <p className="error-note" role="alert" data-testid="charge-error">
            {errors.form}
            {draft ? ' The order is kept as a draft: choose another card and try again.' : ''}
          </p>
        ) : null}
        {paid ? (
          <p className="success-note" role="status" data-testid="charge-paid">
            Charged {formatMoney(paid.total_amount, paid.currency)}:{' '}
            <Link to="/dashboard/orders/$orderId" params={{ orderId: paid.id }}>
              see the order
            </Link>
            .
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" disabled={isBusy}>
            {isBusy ? 'Charging…' : draft ? 'Try again' : 'Charge'}
          </button>
        </div>
      </form>
    </Card>
  );
}
