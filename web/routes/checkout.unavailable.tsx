import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';

/** Where a checkout link sends a browser it cannot send to a checkout (api/checkout-links.ts). */
export const Route = createFileRoute('/checkout/unavailable')({
  validateSearch: z.object({ reason: z.enum(['not_found', 'not_sellable']).catch('not_found') }),
  component: CheckoutLinkUnavailable,
});

const MESSAGES = {
  not_found: {
    title: 'This checkout link does not exist',
    detail: 'The seller may have removed it. Check the link you followed, or ask the seller for a new one.',
  },
  not_sellable: {
    title: 'This product cannot be bought right now',
    detail:
      'The seller’s link offers something that cannot be sold through a checkout at the moment. Nothing was charged. Please contact the seller.',
  },
} as const;

function CheckoutLinkUnavailable() {
  const { reason } = Route.useSearch();
  const message = MESSAGES[reason];
  return (
    <div className="checkout-page">
      <section className="checkout-message" role="alert">
        <h1>{message.title}</h1>
        <p>{message.detail}</p>
      </section>
    </div>
  );
}
