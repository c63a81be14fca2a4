import { randomBytes, randomUUID } from 'node:crypto';
import { Polar as PolarClient, type Polar } from '@polar-sh/sdk';
import type { BenefitCustomCreate } from '@polar-sh/sdk/models/components/benefitcustomcreate.js';
import type { CheckoutCreate } from '@polar-sh/sdk/models/components/checkoutcreate.js';
import type { CheckoutLinkCreateProduct } from '@polar-sh/sdk/models/components/checkoutlinkcreateproduct.js';
import type { CustomerCreate } from '@polar-sh/sdk/models/components/customercreate.js';
import type { DiscountPercentageOnceForeverDurationCreate } from '@polar-sh/sdk/models/components/discountpercentageonceforeverdurationcreate.js';
import type { ProductCreate } from '@polar-sh/sdk/models/components/productcreate.js';
import type { RefundCreate } from '@polar-sh/sdk/models/components/refundcreate.js';
import { eventually } from './eventually.js';
import { issueAccessToken } from '../domain/access-tokens/service.js';
import { insertClient, insertToken } from '../domain/oauth2/repository.js';
import { ACCESS_TOKEN_PREFIXES, CLIENT_ID_PREFIX, hashSecret } from '../domain/oauth2/rules.js';
import { OAUTH2_SCOPES } from '../domain/oauth2/schemas.js';
import { createPaidOrder } from '../domain/orders/service.js';
import { startSubscription } from '../domain/subscriptions/service.js';
import type { Db } from '../infra/db.js';
import type { Prisma } from '../generated/prisma/client.js';

export function createOrganization(db: Db, overrides: Partial<Prisma.OrganizationUncheckedCreateInput> = {}) {
  const suffix = randomUUID().slice(0, 8);
  return db.organization.create({ data: { name: `Acme ${suffix}`, slug: `acme-${suffix}`, ...overrides } });
}

type AccessTokenOverrides = {
  comment?: string;
  expiresAt?: Date | null;
  createdById?: string | null;
  scopes?: string[];
};

/** A token in clear text and its stored row (for tests that need the row's id). */
export function createAccessTokenRecord(
  db: Db,
  organizationId: string,
  overrides: AccessTokenOverrides = {},
) {
  return issueAccessToken(db, {
    organizationId,
    comment: overrides.comment ?? 'test token',
    createdById: overrides.createdById ?? null,
    expiresAt: overrides.expiresAt ?? null,
    scopes: overrides.scopes,
  });
}

export async function createAccessToken(
  db: Db,
  organizationId: string,
  overrides: AccessTokenOverrides = {},
) {
  const { token } = await createAccessTokenRecord(db, organizationId, overrides);
  return token;
}

/**
 * An OAuth app's access token as the token endpoint issues it, without the consent round trip: for
 * `user` (acting as `userId` in every organization they belong to) or for one organization. The
 * app belongs to `userId`; `scopes` defaults to every scope an app may ask for.
 */
export async function createOAuthAccessToken(
  db: Db,
  options: { userId: string; organizationId?: string; scopes?: readonly string[] },
) {
  const subType = options.organizationId ? 'organization' : 'user';
  const scopes = [...(options.scopes ?? OAUTH2_SCOPES)];
  const client = await insertClient(db, {
    clientId: `${CLIENT_ID_PREFIX}${randomBytes(16).toString('base64url')}`,
    clientSecretHash: null,
    registrationTokenHash: hashSecret(randomUUID()),
    userId: options.userId,
    clientName: 'Test app',
    redirectUris: ['https://app.example.test/callback'],
    tokenEndpointAuthMethod: 'none',
    grantTypes: ['authorization_code', 'refresh_token'],
    responseTypes: ['code'],
    scopes,
    clientUri: null,
    logoUri: null,
    tosUri: null,
    policyUri: null,
    defaultSubType: subType,
  });
  const token = `${ACCESS_TOKEN_PREFIXES[subType]}${randomBytes(32).toString('base64url')}`;
  await insertToken(db, {
    clientId: client.id,
    familyId: randomUUID(),
    authorizationCodeId: null,
    subType,
    userId: options.userId,
    organizationId: options.organizationId ?? null,
    scopes,
    accessTokenHash: hashSecret(token),
    refreshTokenHash: null,
    accessExpiresAt: new Date(Date.now() + 60 * 60 * 1000),
    refreshExpiresAt: null,
  });
  return token;
}

export function addMember(db: Db, organizationId: string, userId: string, role: string) {
  return db.member.create({ data: { organizationId, userId, role } });
}

/** An email as the dev mailbox keeps it. */
export function createMailboxMessage(
  db: Db,
  overrides: Partial<Prisma.EmailMessageUncheckedCreateInput> & { toAddress: string },
) {
  const key = randomUUID();
  return db.emailMessage.create({
    data: {
      idempotencyKey: `test:${key}`,
      subject: `Message ${key.slice(0, 8)}`,
      text: 'Hello from a test.',
      transport: 'mailbox',
      status: 'sent',
      sentAt: new Date(),
      ...overrides,
    },
  });
}

export function createMeter(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.MeterUncheckedCreateInput> = {},
) {
  return db.meter.create({
    data: {
      organizationId,
      name: `API calls ${randomUUID().slice(0, 8)}`,
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
      aggregation: { func: 'count' },
      ...overrides,
    },
  });
}

export function createCustomField(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.CustomFieldUncheckedCreateInput> = {},
) {
  const suffix = randomUUID().slice(0, 8);
  return db.customField.create({
    data: {
      organizationId,
      type: 'text',
      slug: `field-${suffix}`,
      name: `Field ${suffix}`,
      properties: { form_label: 'Field' },
      ...overrides,
    },
  });
}

/** A file row as if its bytes had been uploaded (no bytes are stored). */
export function createUploadedFile(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.FileUncheckedCreateInput> = {},
) {
  const id = randomUUID();
  return db.file.create({
    data: {
      id,
      organizationId,
      service: 'product_media',
      name: 'cover.png',
      path: `${organizationId}/${id}/cover.png`,
      mimeType: 'image/png',
      size: 3,
      uploadId: id,
      uploadParts: [{ number: 1, chunk_start: 0, chunk_end: 3, checksum_sha256_base64: null }],
      isUploaded: true,
      ...overrides,
    },
  });
}

/** A GitHub account the customer linked in the portal, as if through GitHub's OAuth. */
export function createLinkedAccount(
  db: Db,
  customer: { id: string; organizationId: string },
  overrides: Partial<Prisma.CustomerOAuthAccountUncheckedCreateInput> = {},
) {
  return db.customerOAuthAccount.create({
    data: {
      organizationId: customer.organizationId,
      customerId: customer.id,
      platform: 'github',
      accountId: '583231',
      accountUsername: 'octocat',
      ...overrides,
    },
  });
}

export function createWebhookEndpoint(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.WebhookEndpointUncheckedCreateInput> = {},
) {
  return db.webhookEndpoint.create({
    data: {
      organizationId,
      url: 'https://hooks.example.test/polar',
      format: 'raw',
      secret: `whs_${randomUUID()}`,
      events: ['organization.updated'],
      ...overrides,
    },
  });
}

/** A user who belongs to the organization with `role` (owners get the disabled-endpoint email). */
export async function createMemberUser(db: Db, organizationId: string, role: string) {
  const suffix = randomUUID().slice(0, 8);
  const user = await db.user.create({
    data: { name: `Owner ${suffix}`, email: `owner-${suffix}@example.test` },
  });
  await addMember(db, organizationId, user.id, role);
  return user;
}

/** A webhook event sent to a new endpoint of the organization, with its one (successful) attempt. */
export async function createWebhookDelivery(db: Db, organizationId: string) {
  const endpoint = await createWebhookEndpoint(db, organizationId);
  const payload = { type: 'organization.updated', timestamp: new Date().toISOString(), data: {} };
  const outboxEvent = await db.outboxEvent.create({
    data: { organizationId, type: payload.type, payload, dispatchedAt: new Date() },
  });
  const event = await db.webhookEvent.create({
    data: {
      organizationId,
      endpointId: endpoint.id,
      outboxEventId: outboxEvent.id,
      type: payload.type,
      resourceId: organizationId,
      payload: JSON.stringify(payload),
      status: 'succeeded',
      succeeded: true,
      lastHttpCode: 200,
    },
  });
  const delivery = await db.webhookDelivery.create({
    data: {
      organizationId,
      webhookEventId: event.id,
      round: 'dispatch',
      attempt: 1,
      succeeded: true,
      httpCode: 200,
      durationMs: 12,
    },
  });
  return { endpoint, event, delivery };
}

// Objects with rules of their own (prices, pricing, state) are made through the API, with the SDK
// of a token of their organization, so that they are exactly what the service would have stored.

export function createProduct(polar: Polar, overrides: Partial<ProductCreate> = {}) {
  return polar.products.create({
    name: `Widget ${randomUUID().slice(0, 8)}`,
    recurringInterval: null,
    prices: [{ amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' }],
    ...overrides,
  });
}

export function createBenefit(polar: Polar, overrides: Partial<BenefitCustomCreate> = {}) {
  return polar.benefits.create({
    type: 'custom',
    description: `Support ${randomUUID().slice(0, 8)}`,
    properties: { note: null },
    ...overrides,
  });
}

export function createCustomer(polar: Polar, overrides: Partial<CustomerCreate> = {}) {
  return polar.customers.create({ email: `buyer-${randomUUID()}@example.test`, ...overrides });
}

export function createDiscount(
  polar: Polar,
  overrides: Partial<DiscountPercentageOnceForeverDurationCreate> = {},
) {
  return polar.discounts.create({
    type: 'percentage',
    duration: 'once',
    basisPoints: 1000,
    name: `Ten off ${randomUUID().slice(0, 8)}`,
    ...overrides,
  });
}

export function createCheckoutLink(
  polar: Polar,
  productId: string,
  overrides: Partial<CheckoutLinkCreateProduct> = {},
) {
  return polar.checkoutLinks.create({ productId, ...overrides });
}

/** An open checkout; its workflow starts, and runs if the stack has a worker. */
export function createCheckout(polar: Polar, productId: string, overrides: Partial<CheckoutCreate> = {}) {
  return polar.checkouts.create({ products: [productId], ...overrides });
}

/**
 * A paid order with billing details (so that an invoice can be generated), recorded as a paid
 * checkout's workflow records it, for a product, customer and checkout made through the API.
 */
export async function createOrder(db: Db, polar: Polar) {
  const product = await createProduct(polar);
  const price = product.prices[0];
  if (!price) throw new Error('the product factory made a product without a price');
  const customer = await createCustomer(polar);
  const checkout = await createCheckout(polar, product.id, { customerId: customer.id });
  return db.$transaction((tx) =>
    createPaidOrder(tx, {
      organizationId: product.organizationId,
      checkoutId: checkout.id,
      customerId: customer.id,
      productId: product.id,
      productPriceId: price.id,
      productName: product.name,
      discountId: null,
      currency: checkout.currency,
      amount: checkout.amount,
      discountAmount: 0,
      netAmount: checkout.amount,
      taxAmount: 0,
      totalAmount: checkout.amount,
      billingName: 'Ada Buyer',
      billingAddress: { country: 'DE', city: 'Berlin', postal_code: '10117', line1: 'Unter den Linden 1' },
      metadata: {},
      customFieldData: {},
      paymentId: null,
      at: new Date(),
    }),
  );
}

/**
 * A monthly plan bought through a checkout, recorded as the paid checkout's workflow records it:
 * the subscription and its `subscription_create` order.
 */
export async function createSubscription(db: Db, polar: Polar) {
  const product = await createProduct(polar, {
    recurringInterval: 'month',
    prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
  });
  const price = product.prices[0]!;
  const customer = await createCustomer(polar);
  const checkout = await createCheckout(polar, product.id, { customerId: customer.id });
  const at = new Date();
  return db.$transaction(async (tx) => {
    const subscription = await startSubscription(
      tx,
      {
        organizationId: product.organizationId,
        customerId: customer.id,
        productId: product.id,
        checkoutId: checkout.id,
        recurringInterval: 'month',
        currency: 'usd',
        prices: [{ productPriceId: price.id, amount: 1500 }],
        amount: 1500,
        discountId: null,
        metadata: {},
        customFieldData: {},
        paymentProcessor: 'sandbox',
        savedPaymentMethod: null,
        at,
      },
      'http://localhost',
    );
    const order = await createPaidOrder(tx, {
      organizationId: product.organizationId,
      checkoutId: checkout.id,
      customerId: customer.id,
      productId: product.id,
      productPriceId: price.id,
      productName: product.name,
      discountId: null,
      currency: 'usd',
      amount: 1500,
      discountAmount: 0,
      netAmount: 1500,
      taxAmount: 0,
      totalAmount: 1500,
      billingName: null,
      billingAddress: null,
      metadata: {},
      customFieldData: {},
      paymentId: null,
      subscriptionId: subscription.id,
      at,
    });
    return {
      id: subscription.id,
      orderId: order.id,
      customerId: customer.id,
      email: customer.email,
      productId: product.id,
    };
  });
}

/** A pending refund of part of the order; its workflow starts, and runs if the stack has a worker. */
export async function createRefund(polar: Polar, orderId: string, overrides: Partial<RefundCreate> = {}) {
  const refund = await polar.refunds.create({
    orderId,
    reason: 'customer_request',
    amount: 100,
    ...overrides,
  });
  // The SDK types the answer as optional (Polar documents more than one success status).
  if (!refund) throw new Error('refunds.create answered no refund');
  return refund;
}

/**
 * The customer buys the product through the sandbox as a buyer does (the hosted checkout's
 * confirm call, a test card), and the checkout is waited for until it succeeded. Answers the
 * paid checkout and the session token its confirmation handed the buyer.
 */
/**
 * Buys a plan with a card that asks for 3-D Secure (`pm_card_authenticationRequired`), answering
 * the sandbox's test page as a buyer who completes it; the plan then renews on that card.
 */
export async function buyAuthenticatingInSandbox(
  polar: Polar,
  baseUrl: string,
  productId: string,
  customerId: string,
) {
  const checkout = await polar.checkouts.create({ products: [productId], customerId });
  const buyer = new PolarClient({ serverURL: baseUrl });
  await buyer.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: {
      customerName: 'Ada Lovelace',
      customerBillingAddress: {
        country: 'DE',
        city: 'Berlin',
        postalCode: '10117',
        line1: 'Unter den Linden 1',
      },
      confirmationTokenId: 'pm_card_authenticationRequired',
    },
  });
  const waiting = await eventually(
    () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
    (value) => value.paymentProcessorMetadata.intent_status === 'requires_action',
  );
  const answered = await fetch(`${baseUrl}/api/sandbox/payments/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_secret: waiting.paymentProcessorMetadata.intent_client_secret,
      outcome: 'complete',
    }),
  });
  if (!answered.ok) throw new Error(`the sandbox's 3-D Secure page answered ${answered.status}`);
  return eventually(
    () => polar.checkouts.get({ id: checkout.id }),
    (value) => value.status === 'succeeded',
  );
}

export async function buyInSandbox(
  polar: Polar,
  baseUrl: string,
  productId: string,
  customerId: string,
  card = 'pm_card_visa',
) {
  const checkout = await polar.checkouts.create({ products: [productId], customerId });
  const confirmed = await new PolarClient({ serverURL: baseUrl }).checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: {
      customerName: 'Ada Lovelace',
      customerBillingAddress: {
        country: 'DE',
        city: 'Berlin',
        postalCode: '10117',
        line1: 'Unter den Linden 1',
      },
      confirmationTokenId: card,
    },
  });
  const paid = await eventually(
    () => polar.checkouts.get({ id: checkout.id }),
    (value) => value.status === 'succeeded',
  );
  return { ...paid, customerSessionToken: confirmed.customerSessionToken };
}
