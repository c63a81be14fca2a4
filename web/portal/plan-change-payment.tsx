import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import {
  customerOrderPaymentStatusSchema,
  customerOrderSchema,
  type CustomerOrder,
} from '../../domain/customer-portal/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { formatMoney } from '../money/format';
import { portalCall } from './api';
import { ConfirmOrderPayment } from './payment-confirmation';
import { portalCustomerKey, refreshAfterSubscriptionChange } from './queries';

/** The subscription's workflow charges a change billed now within seconds: asked every second. */
const POLL_MS = 1_000;

type Outcome =
  | { kind: 'charging' }
  | { kind: 'paid' }
  | { kind: 'confirm'; order: CustomerOrder }
  | { kind: 'declined'; message: string };

/** The order the change just billed: the subscription's newest, made by the change itself. */
export async function changeOrderOf(slug: string, subscriptionId: string): Promise<CustomerOrder | null> {
  const query = new URLSearchParams({ subscription_id: subscriptionId, sorting: '-created_at', limit: '1' });
  const newest = await portalCall(
    slug,
    'GET',
    `/orders/?${query.toString()}`,
    listResourceSchema(customerOrderSchema),
  );
  const [order] = newest.items;
  return order?.billing_reason === 'subscription_update' ? order : null;
}

/**
 * What happened to the payment of a plan change billed now, said as soon as the card was tried:
 * paid; waiting for the buyer's bank (whose page opens at once); or declined, with what to do.
 * Until then it says the card is being charged, never that all is done.
 */
export function PlanChangePayment(props: {
  slug: string;
  subscriptionId: string;
  productName: string;
  /** When the change was made: each change reads its own order. */
  changedAt: number;
  /** The newest change order before this change (read then): still the newest means none was billed. */
  previousOrderId?: string | null;
}) {
  const { slug, subscriptionId, productName } = props;
  const queryClient = useQueryClient();
  const order = useQuery({
    queryKey: [...portalCustomerKey(slug), 'plan-change', subscriptionId, props.changedAt],
    queryFn: async () => {
      const newest = await changeOrderOf(slug, subscriptionId);
      return newest && newest.id === props.previousOrderId ? null : newest;
    },
    staleTime: Infinity,
  });
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'charging' });
  const orderId = order.data?.id ?? null;
  const charging = outcome.kind === 'charging';
  const settled = useRef(false);

  useEffect(() => {
    if (!orderId || !charging) return;
    settled.current = false;
    const timer = setInterval(() => {
      void (async () => {
        const status = await portalCall(
          slug,
          'GET',
          `/orders/${orderId}/payment-status`,
          customerOrderPaymentStatusSchema,
        );
        if (settled.current || status.status === 'no_payment' || status.status === 'pending') return;
        settled.current = true;
        // The plan's status moved with the charge (past due, or active again): the list follows.
        void refreshAfterSubscriptionChange(queryClient, slug);
        if (status.status === 'succeeded') return setOutcome({ kind: 'paid' });
        const current = await portalCall(slug, 'GET', `/orders/${orderId}`, customerOrderSchema);
        setOutcome(
          current.payment_confirmation
            ? { kind: 'confirm', order: current }
            : { kind: 'declined', message: status.error ?? 'The payment did not go through.' },
        );
      })().catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [slug, orderId, charging, queryClient]);

  if (order.isPending) return <p role="status">Changing your plan to {productName}…</p>;
  if (!order.data) {
    // Nothing billed now after all (the preview's amount was taken by a credit): nothing to wait for.
    return (
      <p className="success-note" role="status" data-testid="plan-change-outcome">
        Your plan is now {productName}.
      </p>
    );
  }
  const amount = formatMoney(order.data.total_amount, order.data.currency);
  switch (outcome.kind) {
    case 'charging':
      return (
        <p role="status" data-testid="plan-change-outcome">
          Changing your plan to {productName}: charging {amount} to your card…
        </p>
      );
    case 'paid':
      return (
        <p className="success-note" role="status" data-testid="plan-change-outcome">
          Your plan is now {productName}. We charged {amount} to your card.
        </p>
      );
    case 'confirm':
      return (
        <div className="portal-banner portal-banner-error" data-testid="plan-change-outcome">
          <p role="alert">
            Your bank asks you to confirm the payment of {amount} for {productName}. Your plan has changed,
            and it is past due until this payment goes through.
          </p>
          <ConfirmOrderPayment slug={slug} order={outcome.order} autoStart />
        </div>
      );
    case 'declined':
      return (
        <div className="portal-banner portal-banner-error" data-testid="plan-change-outcome">
          <p role="alert">
            The payment of {amount} for {productName} didn’t go through: {outcome.message} Your plan has
            changed, and it is past due until it is paid. We’ll try your card again over the next few days.
          </p>
          <Link to="/portal/$organizationSlug/billing" params={{ organizationSlug: slug }}>
            Use another card
          </Link>
        </div>
      );
  }
}
