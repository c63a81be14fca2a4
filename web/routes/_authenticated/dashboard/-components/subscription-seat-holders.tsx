import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { seatsListSchema, type CustomerSeat } from '../../../../../domain/customer-seats/schemas';
import type { Subscription } from '../../../../../domain/subscriptions/schemas';
import { deleteResource, getJson } from '../../../../api';
import { Card, ConfirmButton, ErrorNote, formatDate } from '../../../../components';
import { seatsWords } from '../../../../subscriptions/format';

const seatsKey = (subscriptionId: string) => ['customer-seats', subscriptionId] as const;

function holderWords(seat: CustomerSeat): string {
  if (seat.status === 'claimed')
    return seat.claimed_at ? `Accepted on ${formatDate(seat.claimed_at)}` : 'Accepted';
  return seat.invitation_token_expires_at
    ? `Invited: the link works until ${formatDate(seat.invitation_token_expires_at)}`
    : 'Invited';
}

/**
 * Who holds the seats of a plan sold by the seat: the buyer gives them in the portal (or the
 * seller's app through the API); owners and admins can take one back here.
 */
export function SubscriptionSeatHolders(props: { subscription: Subscription; canManage: boolean }) {
  const { subscription } = props;
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const seats = useQuery({
    queryKey: seatsKey(subscription.id),
    queryFn: () =>
      getJson(`/v1/customer-seats?subscription_id=${encodeURIComponent(subscription.id)}`, seatsListSchema),
    enabled: subscription.seats != null,
  });
  if (subscription.seats == null) return null;

  async function revoke(seat: CustomerSeat) {
    setError(null);
    try {
      await deleteResource(`/v1/customer-seats/${seat.id}`);
      await queryClient.invalidateQueries({ queryKey: seatsKey(subscription.id) });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The seat could not be taken back.');
    }
  }

  return (
    <Card title="Seats given" testId="subscription-seat-holders">
      <ErrorNote message={seats.error?.message ?? error} />
      {seats.data ? (
        <>
          <p data-testid="seat-holders-count">
            {seats.data.seats.length} of {seatsWords(seats.data.total_seats)} given,{' '}
            {seats.data.available_seats} free.
          </p>
          {seats.data.seats.length > 0 ? (
            <ul className="plain-list">
              {seats.data.seats.map((seat) => (
                <li key={seat.id} className="wrap-row" data-testid="seat-holder-row">
                  <span className="wrap">
                    <strong>{seat.customer_email ?? seat.email}</strong> · {holderWords(seat)}
                  </span>
                  {props.canManage ? (
                    <ConfirmButton
                      label={`Take back the seat of ${seat.customer_email ?? seat.email ?? 'this person'}`}
                      text="Take back"
                      question="Take this seat back? Its holder loses what the plan gives them."
                      onConfirm={() => revoke(seat)}
                    />
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No seat is given yet: the buyer invites people from their portal.</p>
          )}
        </>
      ) : seats.isPending ? (
        <p role="status">Loading the seats…</p>
      ) : null}
    </Card>
  );
}
