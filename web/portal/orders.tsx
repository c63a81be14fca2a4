import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import {
  customerOrderInvoiceSchema,
  customerOrderSchema,
  type CustomerOrder,
} from '../../domain/customer-portal/schemas';
import { ApiError } from '../api';
import { formatMoney } from '../money/format';
import { formatDate } from '../components';
import { OrderStatusBadge } from '../orders/status';
import { portalCall } from './api';
import { ConfirmOrderPayment } from './payment-confirmation';
import { SeatHolders } from './seat-holders';
import { portalMeQuery, portalResourceKey } from './queries';
import { orderNumber } from '../../domain/orders/rules';

/** The invoice is rendered while the POST is answered; a moment's grace covers a slow storage. */
const INVOICE_TRIES = 5;
const INVOICE_RETRY_MS = 1_000;

type InvoiceState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'ready'; url: string }
  | { kind: 'needs-details' }
  | { kind: 'failed'; message: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isMissingDetails(failure: unknown): boolean {
  return failure instanceof ApiError && failure.code === 'MissingInvoiceBillingDetails';
}

/**
 * "Download invoice": asks for the invoice (a 409 says it exists already), then for its link, and
 * opens it. An order bought without a billing name and address takes the buyer's billing details
 * from their profile when they have saved them; otherwise the buyer is sent there first.
 */
function InvoiceButton({ slug, order }: { slug: string; order: CustomerOrder }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<InvoiceState>({ kind: 'idle' });

  async function generate(): Promise<void> {
    try {
      await portalCall(slug, 'POST', `/orders/${order.id}/invoice`, z.unknown());
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) return;
      throw failure;
    }
  }

  async function copyBillingDetails(): Promise<boolean> {
    const me = await queryClient.fetchQuery(portalMeQuery(slug));
    if (!me.name || !me.billing_address) return false;
    await portalCall(slug, 'PATCH', `/orders/${order.id}`, customerOrderSchema, {
      billing_name: me.name,
      billing_address: me.billing_address,
    });
    return true;
  }

  async function fetchLink(): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await portalCall(slug, 'GET', `/orders/${order.id}/invoice`, customerOrderInvoiceSchema)).url;
      } catch (failure) {
        if (!(failure instanceof ApiError && failure.status === 404) || attempt >= INVOICE_TRIES)
          throw failure;
        await sleep(INVOICE_RETRY_MS);
      }
    }
  }

  async function download() {
    setState({ kind: 'working' });
    try {
      if (!order.is_invoice_generated) {
        try {
          await generate();
        } catch (failure) {
          if (!isMissingDetails(failure) || !(await copyBillingDetails())) throw failure;
          await generate();
        }
      }
      const url = await fetchLink();
      setState({ kind: 'ready', url });
      void queryClient.invalidateQueries({ queryKey: portalResourceKey(slug, 'orders') });
      // A pop-up blocker may refuse this (the click was a moment ago): the link below stays.
      window.open(url, '_blank', 'noopener');
    } catch (failure) {
      if (isMissingDetails(failure)) setState({ kind: 'needs-details' });
      else if (failure instanceof ApiError) setState({ kind: 'failed', message: failure.message });
      else setState({ kind: 'failed', message: 'We could not reach the server. Try again in a moment.' });
    }
  }

  return (
    <div className="portal-invoice">
      <button
        type="button"
        className="secondary"
        disabled={state.kind === 'working'}
        aria-label={`Download invoice for ${order.description}, ${formatDate(order.created_at)}`}
        onClick={() => void download()}
      >
        {state.kind === 'working' ? 'Preparing invoice…' : 'Download invoice'}
      </button>
      {state.kind === 'ready' ? (
        <p role="status">
          Your invoice is ready:{' '}
          <a href={state.url} target="_blank" rel="noreferrer" data-testid="invoice-link">
            Open the invoice
          </a>
        </p>
      ) : null}
      {state.kind === 'needs-details' ? (
        <p className="error-note" role="alert">
          Your invoice needs your name and billing address. Add them in{' '}
          <Link to="/portal/$organizationSlug/billing" params={{ organizationSlug: slug }}>
            Billing details
          </Link>
          , then download the invoice again.
        </p>
      ) : null}
      {state.kind === 'failed' ? (
        <p className="error-note" role="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}

export function OrderItem({ slug, order }: { slug: string; order: CustomerOrder }) {
  // Once paid here, the order no longer waits for the buyer: the thank-you stays until they leave.
  const [confirmedHere, setConfirmedHere] = useState(false);
  return (
    <li className="portal-item" data-testid="portal-order">
      <div className="portal-item-head">
        <h3 className="wrap">{order.description}</h3>
        <OrderStatusBadge status={order.status} />
      </div>
      <dl className="portal-facts">
        <dt>Order number</dt>
        <dd data-testid="order-number">{orderNumber(order.id)}</dd>
        <dt>Date</dt>
        <dd data-testid="order-date">{formatDate(order.created_at)}</dd>
        <dt>Amount</dt>
        <dd data-testid="order-amount">{formatMoney(order.total_amount, order.currency)}</dd>
      </dl>
      {order.payment_confirmation || confirmedHere ? (
        <div
          className={`portal-banner${confirmedHere ? '' : ' portal-banner-error'}`}
          data-testid="order-payment-confirmation"
        >
          {confirmedHere ? null : <p>Your bank asks you to confirm this payment before it goes through.</p>}
          <ConfirmOrderPayment slug={slug} order={order} onPaid={() => setConfirmedHere(true)} />
        </div>
      ) : null}
      {order.paid ? <InvoiceButton slug={slug} order={order} /> : null}
      {/* A one-time purchase of seats: the buyer gives them here (docs/seats.md). */}
      {order.seats != null && order.paid && !order.subscription_id ? (
        <SeatHolders slug={slug} purchase={{ order_id: order.id }} />
      ) : null}
    </li>
  );
}
