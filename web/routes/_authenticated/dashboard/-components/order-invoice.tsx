import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import type { Order } from '../../../../../domain/orders/schemas';
import { sendJson } from '../../../../api';
import { orderInvoiceQuery, orderQuery } from '../../../../orders/queries';

/** Invoices are rendered by a background job: after asking for one, the page polls for its URL. */
const INVOICE_POLL_MS = 1_000;

export function OrderInvoice({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const [isRequested, setRequested] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const invoice = useQuery({
    ...orderInvoiceQuery(order.id),
    enabled: order.is_invoice_generated || isRequested,
    refetchInterval: (query) => (query.state.data === null ? INVOICE_POLL_MS : false),
  });

  async function generate() {
    setError(null);
    try {
      await sendJson('POST', `/v1/orders/${order.id}/invoice`, {}, z.unknown());
      setRequested(true);
      await queryClient.invalidateQueries({ queryKey: orderQuery(order.id).queryKey });
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
