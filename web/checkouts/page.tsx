import { useEffect, type ReactNode } from 'react';
import { z } from 'zod';
import { ApiError } from '../api';
import { postEmbedEvent, type EmbedEvent, type EmbedTarget } from './embed';

/** `?embed=true` (Polar's embed script adds it); the parser may hand it over as text or boolean. */
export const embedSearchSchema = z.preprocess(
  (value) => (value === 'true' ? true : value),
  z.boolean().optional().catch(undefined),
);

/** Frames both hosted checkout pages; in an embed it adds the close button the parent listens for. */
export function CheckoutShell({ embed, children }: { embed: EmbedTarget | null; children: ReactNode }) {
  return (
    <div className={`checkout-page${embed ? ' is-embedded' : ''}`}>
      {embed ? (
        <div className="embed-bar">
          <button
            type="button"
            className="secondary"
            onClick={() => postEmbedEvent(embed, { event: 'close' })}
          >
            Close
          </button>
        </div>
      ) : null}
      {children}
    </div>
  );
}

/** Events already posted by this document: `loaded` and `success` are said once per page load. */
const postedEvents = new Set<EmbedEvent['event']>();

/** Posts `message` to the embedding page unless this document already did (StrictMode, re-renders). */
export function useEmbedEventOnce(embed: EmbedTarget | null, message: EmbedEvent | null): void {
  useEffect(() => {
    if (!embed || !message || postedEvents.has(message.event)) return;
    postedEvents.add(message.event);
    postEmbedEvent(embed, message);
  }, [embed, message]);
}

/** What the buyer reads when the checkout cannot be shown. */
export function CheckoutUnavailable({ error }: { error: Error }) {
  const status = error instanceof ApiError ? error.status : 0;
  const title =
    status === 410
      ? 'This checkout has expired'
      : status === 404
        ? 'This checkout does not exist'
        : 'This checkout cannot be shown';
  const detail =
    status === 410
      ? 'Its time ran out before it was paid. Go back to the seller’s page to start a new one.'
      : status === 404
        ? 'Check the link you followed.'
        : error.message;
  return (
    <section className="checkout-message" role="alert">
      <h1>{title}</h1>
      <p>{detail}</p>
    </section>
  );
}
