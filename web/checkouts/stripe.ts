// Stripe.js, for servers in live mode only: the sandbox never loads anything from the internet.
// Stripe requires Stripe.js to come from js.stripe.com (it cannot be bundled), so it is injected
// on demand. Only the calls the checkout makes are typed here: a Payment Element, a
// ConfirmationToken whose id the server uses to create and confirm the PaymentIntent (without
// redirects), and the 3-D Secure step Stripe shows in place when the card asks for it.

const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

type StripeError = { message?: string };

export type StripePaymentElement = {
  mount(element: HTMLElement): void;
  destroy(): void;
};

export type StripeElements = {
  create(type: 'payment', options?: { layout?: 'tabs' | 'accordion' }): StripePaymentElement;
  update(options: { amount: number; currency: string }): void;
  submit(): Promise<{ error?: StripeError }>;
};

export type StripeBillingDetails = {
  name: string | null;
  email: string | null;
  address: {
    country: string | null;
    line1: string | null;
    line2: string | null;
    postal_code: string | null;
    city: string | null;
    state: string | null;
  } | null;
};

export type StripeClient = {
  elements(options: {
    mode: 'payment' | 'subscription' | 'setup';
    amount?: number;
    currency: string;
    paymentMethodCreation: 'manual';
    paymentMethodTypes: string[];
  }): StripeElements;
  createConfirmationToken(options: {
    elements: StripeElements;
    params?: { payment_method_data?: { billing_details?: StripeBillingDetails } };
  }): Promise<{ confirmationToken?: { id: string }; error?: StripeError }>;
  /** Shows the card issuer's authentication for a PaymentIntent in `requires_action`. */
  handleNextAction(options: { clientSecret: string }): Promise<{ error?: StripeError }>;
};

type StripeFactory = (publishableKey: string) => StripeClient;

let loading: Promise<StripeFactory> | null = null;

function loadStripeJs(): Promise<StripeFactory> {
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('Stripe.js loaded without defining Stripe.'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('The payment form could not be loaded. Check your connection and reload the page.'));
    };
    document.head.append(script);
  });
  return loading;
}

export async function loadStripe(publishableKey: string): Promise<StripeClient> {
  const factory = await loadStripeJs();
  return factory(publishableKey);
}
