/**
 * A signing secret made in the browser, in the server's own format: the API never returns a secret
 * (Polar's WebhookEndpoint has none), so the page can show it once only if the page chose it.
 */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64url = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `tollgate_whs_${base64url}`;
}
