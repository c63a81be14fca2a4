import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import {
  customerSeatClaimResponseSchema,
  seatClaimInfoSchema,
  type SeatClaimInfo,
} from '../../domain/customer-seats/schemas';
import { ApiError } from '../api';
import { seatClaimCall } from './api';
import { portalCustomerKey } from './queries';
import { savePortalToken } from './session';

type Claim =
  | { kind: 'checking' }
  | { kind: 'ready'; info: SeatClaimInfo }
  | { kind: 'claiming'; info: SeatClaimInfo }
  | { kind: 'done'; info: SeatClaimInfo }
  | { kind: 'invalid'; message: string };

/**
 * The page a seat invitation opens: what the seat gives and who it is for, then one button that
 * makes it theirs and signs them in to the seller's portal.
 */
export function ClaimSeat({ slug, token }: { slug: string; token: string | undefined }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<Claim>({ kind: 'checking' });

  useEffect(() => {
    if (!token) {
      setState({ kind: 'invalid', message: 'This link is incomplete: open the link from the email again.' });
      return;
    }
    let isCurrent = true;
    seatClaimCall('GET', `/claim/${encodeURIComponent(token)}`, seatClaimInfoSchema)
      .then((info) => {
        if (!isCurrent) return;
        setState(
          info.can_claim
            ? { kind: 'ready', info }
            : {
                kind: 'invalid',
                message: `This seat of ${info.product_name} cannot be accepted now: the purchase has ended or is not paid. Ask whoever invited you.`,
              },
        );
      })
      .catch((failure: unknown) => {
        if (isCurrent) setState({ kind: 'invalid', message: messageOf(failure) });
      });
    return () => {
      isCurrent = false;
    };
  }, [token]);

  async function claim() {
    if (!token || state.kind !== 'ready') return;
    const { info } = state;
    setState({ kind: 'claiming', info });
    try {
      const claimed = await seatClaimCall('POST', '/claim', customerSeatClaimResponseSchema, {
        invitation_token: token,
      });
      queryClient.removeQueries({ queryKey: portalCustomerKey(slug) });
      savePortalToken(slug, claimed.customer_session_token);
      setState({ kind: 'done', info });
    } catch (failure) {
      setState({ kind: 'invalid', message: messageOf(failure) });
    }
  }

  const info = 'info' in state ? state.info : null;
  return (
    <section className="checkout-message" aria-labelledby="claim-seat-heading">
      <h1 id="claim-seat-heading" className="long-text">
        {info ? `Your seat of ${info.product_name}` : 'Accept your seat'}
      </h1>
      {state.kind === 'checking' ? <p role="status">Checking your invitation…</p> : null}
      {state.kind === 'ready' || state.kind === 'claiming' ? (
        <>
          <p className="long-text">
            {state.info.organization_name} invites {state.info.customer_email} to a seat of{' '}
            {state.info.product_name}. Accepting it gives you what it includes; nothing is charged to you.
          </p>
          <button type="button" aria-disabled={state.kind === 'claiming'} onClick={() => void claim()}>
            {state.kind === 'claiming' ? 'Accepting…' : 'Accept this seat'}
          </button>
        </>
      ) : null}
      {state.kind === 'done' ? (
        <>
          <p className="success-note" role="status" data-testid="seat-claimed">
            The seat is yours: what it includes is on its way to you.
          </p>
          <Link to="/portal/$organizationSlug" params={{ organizationSlug: slug }}>
            Go to your account
          </Link>
        </>
      ) : null}
      {state.kind === 'invalid' ? (
        <p className="error-note" role="alert" data-testid="seat-claim-error">
          {state.message}
        </p>
      ) : null}
    </section>
  );
}

const NO_CONNECTION = 'We could not reach the server. Check your connection and try again.';

function messageOf(failure: unknown): string {
  return failure instanceof ApiError ? failure.message : NO_CONNECTION;
}
