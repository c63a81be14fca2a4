// Embedded checkout: the page runs in an iframe on the seller's site and tells the parent what
// happens, in the message format of Polar's embed script (`@polar-sh/checkout/embed`), so that
// script works against this app unchanged: `{ type: 'POLAR_CHECKOUT', event, … }`.
// Messages go to the checkout's `embed_origin` only, never to `*`: another page framing the
// checkout must not learn that someone paid.

export const EMBED_MESSAGE_TYPE = 'POLAR_CHECKOUT';

export type EmbedEvent =
  | { event: 'loaded' }
  | { event: 'close' }
  /** Payment submitted: from here on the parent should not let the buyer close the frame. */
  | { event: 'confirmed' }
  /** Paid. With `redirect` the parent navigates to `successURL` (the frame does not). */
  | { event: 'success'; successURL: string; redirect: boolean };

export type EmbedTarget = { origin: string };

/**
 * The parent to talk to, when this page is embedded: asked for with `?embed=true`, framed, and the
 * checkout names the origin it may be framed by.
 */
export function embedTarget(isEmbedRequested: boolean, embedOrigin: string | null): EmbedTarget | null {
  if (!isEmbedRequested || !embedOrigin || window.parent === window) return null;
  return { origin: embedOrigin };
}

export function postEmbedEvent(target: EmbedTarget | null, message: EmbedEvent): void {
  if (!target) return;
  window.parent.postMessage({ ...message, type: EMBED_MESSAGE_TYPE }, target.origin);
}
