import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { sendJson } from '../../../api';
import { Card, ErrorNote, formatDateTime, formValues, SuccessNote } from '../../../components';
import { listCountries } from '../../../checkouts/countries';
import { formatMoney } from '../../../checkouts/money';
import { fetchInvoiceUrl, orderQuery, orderRefundsQuery, REFUND_POLL_MS } from '../../../orders/queries';
import { RefundDialog } from '../../../orders/refund-dialog';
import { orderSchema, type Order } from '../../../../domain/orders/schemas';
import { OrderStatusBadge, REFUND_REASON_LABELS, RefundStatusBadge } from '../../../orders/status';

export const Route = createFileRoute('/_authenticated/dashboard/orders/$orderId')({ component: OrderPage });

/** Invoices are rendered by a background job: after asking for one, the page polls for its URL. */
const INVOICE_POLL_MS = 1_000;

function OrderPage() {
  const { orderId } = Route.useParams();
  const refunds = useQuery({
    ...orderRefundsQuery(orderId),
    refetchInterval: (query) =>
      query.state.data?.items.some((refund) => refund.status === 'pending') ? REFUND_POLL_MS : false,
  });
  const refundList = refunds.data?.items ?? [];
  const hasPendingRefund = refundList.some((refund) => refund.status === 'pending');
  const settledRefunds = refundList
    .filter((refund) => refund.status === 'succeeded')
    .reduce((sum, refund) => sum + refund.amount, 0);
  // A refund settles in its workflow, which then updates the order: poll until the order's
  // refunded amount has caught up with the refunds (the two queries refresh independently).
  const order = useQuery({
    ...orderQuery(orderId),
    refetchInterval: (query) =>
      hasPendingRefund || (query.state.data && query.state.data.refunded_amount !== settledRefunds)
        ? REFUND_POLL_MS
        : false,
  });
  if (order.error) return <ErrorNote message={order.error.message} />;
  if (!order.data) return <p>Loading…</p>;
  const data = order.data;
  const money = (amount: number) => formatMoney(amount, data.currency);

  return (
    <>
      <p>
        <Link to="/dashboard/orders">← All orders</Link>
      </p>
      <Card title={`Order ${data.id.slice(0, 8)}`}>
        <dl className="details" data-testid="order-details">
          <dt>Status</dt>
          <dd>
            <OrderStatusBadge status={data.status} />
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(data.created_at)}</dd>
          <dt>Customer</dt>
          <dd>
            <Link to="/dashboard/customers/$customerId" params={{ customerId: data.customer.id }}>
              {data.customer.email}
            </Link>
            {data.customer.name ? ` (${data.customer.name})` : ''}
          </dd>
          <dt>Product</dt>
          <dd>{data.product.name}</dd>
          <dt>Billing reason</dt>
          <dd>{data.billing_reason.replaceAll('_', ' ')}</dd>
          {data.discount ? (
            <>
              <dt>Discount</dt>
              <dd>{data.discount.code ?? data.discount.name}</dd>
            </>
          ) : null}
        </dl>
        <div className="actions">
          <RefundDialog order={data} />
          <InvoiceActions order={data} />
        </div>
      </Card>

      <Card title="Items">
        <table className="data-table">
          <thead>
            <tr>
              <th>Item</th>
              <th>Amount</th>
              <th>Tax</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((item) => (
              <tr key={item.id}>
                <td>{item.label}</td>
                <td>{money(item.amount)}</td>
                <td>{money(item.tax_amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="details amounts" data-testid="order-amounts">
          <dt>Subtotal</dt>
          <dd>{money(data.subtotal_amount)}</dd>
          <dt>Discount</dt>
          <dd>−{money(data.discount_amount)}</dd>
          <dt>Net</dt>
          <dd>{money(data.net_amount)}</dd>
          <dt>Tax</dt>
          <dd>{money(data.tax_amount)}</dd>
          <dt>Total</dt>
          <dd>{money(data.total_amount)}</dd>
          <dt>Refunded</dt>
          <dd data-testid="refunded-amount">
            {money(data.refunded_amount)}
            {data.refunded_tax_amount > 0 ? ` + ${money(data.refunded_tax_amount)} tax` : ''}
          </dd>
        </dl>
      </Card>

      <Card title="Refunds">
        <ErrorNote message={refunds.error?.message ?? null} />
        {refunds.data?.items.length === 0 ? <p className="muted">No refunds.</p> : null}
        <ul className="plain-list">
          {(refunds.data?.items ?? []).map((refund) => (
            <li key={refund.id} data-testid="order-refund-row">
              {formatDateTime(refund.created_at)} · {money(refund.amount)}
              {refund.tax_amount > 0 ? ` + ${money(refund.tax_amount)} tax` : ''} ·{' '}
              {REFUND_REASON_LABELS[refund.reason]} <RefundStatusBadge status={refund.status} />
            </li>
          ))}
        </ul>
      </Card>

      <BillingDetails order={data} />
    </>
  );
}

function InvoiceActions({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const [isRequested, setRequested] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const invoice = useQuery({
    queryKey: ['order-invoice', order.id],
    queryFn: () => fetchInvoiceUrl(order.id),
    enabled: order.is_invoice_generated || isRequested,
    refetchInterval: (query) => (query.state.data === null ? INVOICE_POLL_MS : false),
  });

  async function generate() {
    setError(null);
    try {
      await sendJson('POST', `/v1/orders/${order.id}/invoice`, {}, z.unknown());
      setRequested(true);
      await queryClient.invalidateQueries({ queryKey: ['order', order.id] });
    } catch (failure) {
      // MissingInvoiceBillingDetails / NotPaidOrder explain what to do first.
      setError((failure as Error).message);
    }
  }

  if (invoice.data) {
    return (
      <a className="button-link" href={invoice.data} download target="_blank" rel="noreferrer">
        Download invoice
      </a>
    );
  }
  if (order.is_invoice_generated || isRequested) return <span role="status">Preparing the invoice…</span>;
  return (
    <>
      <button type="button" className="secondary" onClick={() => void generate()}>
        Generate invoice
      </button>
      {error ? (
        <span className="error-note" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}

function BillingDetails({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const countries = useMemo(() => listCountries(), []);
  const [error, setError] = useState<string | null>(null);
  const [isSaved, setSaved] = useState(false);
  const address = order.billing_address;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    const text = (key: string) => values[key]?.trim() || null;
    const country = text('country');
    try {
      const updated = await sendJson(
        'PATCH',
        `/v1/orders/${order.id}`,
        {
          billing_name: text('billing_name'),
          billing_address: country
            ? {
                country,
                line1: text('line1'),
                line2: text('line2'),
                postal_code: text('postal_code'),
                city: text('city'),
                state: text('state'),
              }
            : null,
        },
        orderSchema,
      );
      queryClient.setQueryData(['order', order.id], updated);
      setError(null);
      setSaved(true);
    } catch (failure) {
      setSaved(false);
      setError((failure as Error).message);
    }
  }

  const field = (name: string, label: string, value: string | null | undefined, autoComplete: string) => (
    <label className="field">
      <span>{label}</span>
      <input name={name} defaultValue={value ?? ''} autoComplete={autoComplete} />
    </label>
  );

  return (
    <Card title="Billing details">
      <form onSubmit={(event) => void onSubmit(event)} className="stacked-form stack" noValidate>
        {field('billing_name', 'Billing name', order.billing_name, 'name')}
        <label className="field">
          <span>Country</span>
          <select name="country" defaultValue={address?.country ?? ''}>
            <option value="">No address</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </label>
        {field('line1', 'Address line 1', address?.line1, 'address-line1')}
        {field('line2', 'Address line 2', address?.line2, 'address-line2')}
        {field('postal_code', 'Postal code', address?.postal_code, 'postal-code')}
        {field('city', 'City', address?.city, 'address-level2')}
        {field('state', 'State / province', address?.state, 'address-level1')}
        <div>
          <button type="submit">Save billing details</button>
        </div>
      </form>
      <SuccessNote message={isSaved ? 'Billing details saved.' : null} />
      <ErrorNote message={error} />
    </Card>
  );
}
