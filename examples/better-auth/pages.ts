// The demo's pages: plain HTML from the server, no script and nothing loaded from elsewhere.
import type { ReceivedWebhook } from './auth.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Tagged template whose values are escaped unless they are already `Html`. */
class Html {
  constructor(readonly text: string) {}
}
type Value = string | number | Html | Html[] | null | undefined;
export const html = (strings: TemplateStringsArray, ...values: Value[]) =>
  new Html(
    strings.reduce((out, part, i) => {
      const value = values[i - 1];
      const rendered = Array.isArray(value)
        ? value.map((item) => item.text).join('')
        : value instanceof Html
          ? value.text
          : escapeHtml(String(value ?? ''));
      return out + rendered + part;
    }),
  );

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    amount / 100,
  );

export function layout(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Better Auth × Tollgate</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 46rem;
            margin: 2rem auto;
            padding: 0 1rem;
          }
          section {
            border: 1px solid #ddd;
            border-radius: 8px;
            padding: 0.5rem 1rem 1rem;
            margin: 1rem 0;
          }
          form {
            display: grid;
            gap: 0.5rem;
            max-width: 22rem;
          }
          form.inline {
            display: inline-block;
          }
          table {
            border-collapse: collapse;
            width: 100%;
          }
          td,
          th {
            text-align: left;
            padding: 0.25rem 0.5rem;
            border-bottom: 1px solid #eee;
          }
          .error {
            color: #b00020;
          }
        </style>
      </head>
      <body>
        <h1>${title}</h1>
        ${body}
      </body>
    </html>`.text;
}

export type SignedOutView = { error?: string };

export function signedOutPage({ error }: SignedOutView): string {
  return layout(
    'Better Auth × Tollgate',
    html`<p>A Better Auth app with Polar's plugin, billing through Tollgate.</p>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <section>
        <h2>Sign up</h2>
        <form method="post" action="/sign-up">
          <label>Name <input name="name" required /></label>
          <label>Email <input name="email" type="email" required /></label>
          <label>Password <input name="password" type="password" minlength="8" required /></label>
          <button type="submit">Sign up</button>
        </form>
      </section>
      <section>
        <h2>Sign in</h2>
        <form method="post" action="/sign-in">
          <label>Email <input name="email" type="email" required /></label>
          <label>Password <input name="password" type="password" required /></label>
          <button type="submit">Sign in</button>
        </form>
      </section>`,
  );
}

export type AccountView = {
  user: { name: string; email: string };
  productSlug: string;
  usageEventName: string;
  state: {
    activeSubscriptions: { id: string; status: string }[];
    activeMeters: { meterId: string; consumedUnits: number }[];
  } | null;
  orders: { id: string; description: string; totalAmount: number; currency: string; status: string }[];
  subscriptions: {
    id: string;
    status: string;
    amount: number;
    currency: string;
    product: { name: string };
  }[];
  meters: {
    id: string;
    consumedUnits: number;
    creditedUnits: number;
    balance: number;
    meter: { name: string };
  }[];
  webhooks: ReceivedWebhook[];
  notice?: string;
  error?: string;
};

export function accountPage(view: AccountView): string {
  return layout(
    'Your account',
    html`<p>Signed in as <strong data-testid="user-email">${view.user.email}</strong> (${view.user.name}).</p>
      <form class="inline" method="post" action="/sign-out"><button type="submit">Sign out</button></form>
      ${view.notice ? html`<p role="status">${view.notice}</p>` : null}
      ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : null}
      <section>
        <h2>Buy</h2>
        <form method="post" action="/checkout">
          <input type="hidden" name="slug" value="${view.productSlug}" />
          <button type="submit">Subscribe to ${view.productSlug}</button>
        </form>
      </section>
      <section aria-label="Billing">
        <h2>Billing</h2>
        <p data-testid="active-subscriptions">
          Active subscriptions: ${view.state ? view.state.activeSubscriptions.length : 'unknown'}
        </p>
        <h3>Orders</h3>
        ${
          view.orders.length === 0
            ? html`<p>No orders yet.</p>`
            : html`<table>
                <tbody>
                  ${view.orders.map(
                    (order) =>
                      html`<tr data-testid="order-row">
                        <td>${order.description}</td>
                        <td>${money(order.totalAmount, order.currency)}</td>
                        <td>${order.status}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
        <h3>Subscriptions</h3>
        ${
          view.subscriptions.length === 0
            ? html`<p>No subscriptions yet.</p>`
            : html`<table>
                <tbody>
                  ${view.subscriptions.map(
                    (subscription) =>
                      html`<tr data-testid="subscription-row">
                        <td>${subscription.product.name}</td>
                        <td>${money(subscription.amount, subscription.currency)}</td>
                        <td>${subscription.status}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
        <form method="post" action="/portal"><button type="submit">Open the customer portal</button></form>
      </section>
      <section aria-label="Usage">
        <h2>Usage</h2>
        <form method="post" action="/usage">
          <input type="hidden" name="event" value="${view.usageEventName}" />
          <button type="submit">Record one ${view.usageEventName} event</button>
        </form>
        ${
          view.meters.length === 0
            ? html`<p>No meter readings yet.</p>`
            : html`<table>
                <tbody>
                  ${view.meters.map(
                    (meter) =>
                      html`<tr data-testid="meter-row">
                        <td>${meter.meter.name}</td>
                        <td data-testid="meter-consumed">${meter.consumedUnits}</td>
                        <td>credited ${meter.creditedUnits}, balance ${meter.balance}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
      </section>
      ${webhookSection(view.webhooks)}`,
  );
}

function webhookSection(events: ReceivedWebhook[]) {
  return html`<section aria-label="Webhooks">
    <h2>Webhook events received</h2>
    <p>Each one's Standard Webhooks signature was verified with the endpoint's secret.</p>
    ${
      events.length === 0
        ? html`<p>None yet.</p>`
        : html`<table>
            <tbody>
              ${events.map(
                (event) =>
                  html`<tr data-testid="webhook-row">
                    <td>${event.type}</td>
                    <td>${event.id}</td>
                    <td>${event.timestamp}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

export function successPage(checkoutId: string): string {
  return layout(
    'Thank you',
    html`<p>Your payment went through (checkout <code data-testid="checkout-id">${checkoutId}</code>).</p>
      <p><a href="/">Back to your account</a></p>`,
  );
}
