import { describe, expect, it } from '@jest/globals';
import { encodeFormQuery } from '@polar-sh/sdk/lib/encodings.js';
import { CustomerBenefitGrant$inboundSchema } from '@polar-sh/sdk/models/components/customerbenefitgrant.js';
import { CustomerBenefitGrantSortProperty } from '@polar-sh/sdk/models/components/customerbenefitgrantsortproperty.js';
import { CustomerBenefitGrantUpdate$outboundSchema } from '@polar-sh/sdk/models/components/customerbenefitgrantupdate.js';
import { CustomerCustomerMeter$inboundSchema } from '@polar-sh/sdk/models/components/customercustomermeter.js';
import { CustomerCustomerMeterSortProperty } from '@polar-sh/sdk/models/components/customercustomermetersortproperty.js';
import { CustomerOrder$inboundSchema } from '@polar-sh/sdk/models/components/customerorder.js';
import { CustomerOrderInvoice$inboundSchema } from '@polar-sh/sdk/models/components/customerorderinvoice.js';
import { CustomerOrderSortProperty } from '@polar-sh/sdk/models/components/customerordersortproperty.js';
import { CustomerOrderUpdate$outboundSchema } from '@polar-sh/sdk/models/components/customerorderupdate.js';
import { CustomerOrganization$inboundSchema } from '@polar-sh/sdk/models/components/customerorganization.js';
import { CustomerPortalCustomer$inboundSchema } from '@polar-sh/sdk/models/components/customerportalcustomer.js';
import { CustomerPortalCustomerUpdate$outboundSchema } from '@polar-sh/sdk/models/components/customerportalcustomerupdate.js';
import { CustomerSession$inboundSchema } from '@polar-sh/sdk/models/components/customersession.js';
import { CustomerSubscription$inboundSchema } from '@polar-sh/sdk/models/components/customersubscription.js';
import { CustomerSubscriptionSortProperty } from '@polar-sh/sdk/models/components/customersubscriptionsortproperty.js';
import { CustomerSubscriptionUpdate$outboundSchema } from '@polar-sh/sdk/models/components/customersubscriptionupdate.js';
import { DownloadableRead$inboundSchema } from '@polar-sh/sdk/models/components/downloadableread.js';
import { LicenseKeyActivate$outboundSchema } from '@polar-sh/sdk/models/components/licensekeyactivate.js';
import { LicenseKeyActivationRead$inboundSchema } from '@polar-sh/sdk/models/components/licensekeyactivationread.js';
import { LicenseKeyDeactivate$outboundSchema } from '@polar-sh/sdk/models/components/licensekeydeactivate.js';
import { LicenseKeyValidate$outboundSchema } from '@polar-sh/sdk/models/components/licensekeyvalidate.js';
import { Items$inboundSchema as PaymentMethodItem$inboundSchema } from '@polar-sh/sdk/models/components/listresourceunionpaymentmethodcardpaymentmethodgeneric.js';
import { ValidatedLicenseKey$inboundSchema } from '@polar-sh/sdk/models/components/validatedlicensekey.js';
import { CustomerPortalBenefitGrantsListRequest$outboundSchema } from '@polar-sh/sdk/models/operations/customerportalbenefitgrantslist.js';
import { CustomerPortalCustomerMetersListRequest$outboundSchema } from '@polar-sh/sdk/models/operations/customerportalcustomermeterslist.js';
import { CustomerPortalDownloadablesListRequest$outboundSchema } from '@polar-sh/sdk/models/operations/customerportaldownloadableslist.js';
import { CustomerPortalLicenseKeysListRequest$outboundSchema } from '@polar-sh/sdk/models/operations/customerportallicensekeyslist.js';
import { CustomerPortalOrdersListRequest$outboundSchema } from '@polar-sh/sdk/models/operations/customerportalorderslist.js';
import { CustomerPortalSubscriptionsListRequest$outboundSchema } from '@polar-sh/sdk/models/operations/customerportalsubscriptionslist.js';
import { CustomerSessionsCreateCustomerSessionCreate$outboundSchema } from '@polar-sh/sdk/models/operations/customersessionscreate.js';
import type { z } from 'zod';
import { invalidInputFromZod } from '../platform/errors.js';
import {
  customerBenefitGrantListQuerySchema,
  customerBenefitGrantSchema,
  customerBenefitGrantSortFields,
  customerBenefitGrantUpdateSchema,
  customerCustomerMeterListQuerySchema,
  customerCustomerMeterSchema,
  customerCustomerMeterSortFields,
  customerLicenseKeyListQuerySchema,
  customerOrderInvoiceSchema,
  customerOrderListQuerySchema,
  customerOrderSchema,
  customerOrderSortFields,
  customerOrderUpdateSchema,
  customerOrganizationSchema,
  customerPortalCustomerSchema,
  customerPortalCustomerUpdateSchema,
  customerSubscriptionListQuerySchema,
  customerSubscriptionSchema,
  customerSubscriptionSortFields,
  customerSubscriptionUpdateSchema,
  downloadableListQuerySchema,
  downloadableSchema,
  licenseKeyActivateSchema,
  licenseKeyActivationSchema,
  licenseKeyDeactivateSchema,
  licenseKeyValidateSchema,
  validatedLicenseKeySchema,
} from './schemas.js';
import { customerSessionCreateSchema, customerSessionSchema } from '../customer-sessions/schemas.js';
import { paymentMethodSchema } from '../payment-methods/schemas.js';

// ── Samples ───────────────────────────────────────────────────────────────────────────────────

const at = '2026-01-31T10:00:00.000Z';
const periodEnd = '2026-02-28T10:00:00.000Z';
const id = (n: number) => `0b8f8a52-6a4e-4d0e-9a43-0d5e2b1a${String(n).padStart(4, '0')}`;
const ids = {
  organization: id(1),
  customer: id(2),
  product: id(3),
  price: id(4),
  benefit: id(5),
  media: id(6),
  order: id(7),
  orderItem: id(8),
  subscription: id(9),
  discount: id(10),
  checkout: id(11),
  meter: id(12),
  subscriptionMeter: id(13),
  customerMeter: id(14),
  grant: id(15),
  file: id(16),
  downloadable: id(17),
  licenseKey: id(18),
  activation: id(19),
  session: id(20),
};
const stamps = { created_at: at, modified_at: null };

const organization = {
  ...stamps,
  id: ids.organization,
  name: 'Acme Tools',
  slug: 'acme-tools',
  avatar_url: null,
  email: 'billing@acme.test',
  website: 'https://acme.test',
  address: null,
  time_zone: 'Europe/Berlin',
  socials: [{ platform: 'github', url: 'https://github.com/acme' }],
  details_submitted_at: at,
  feature_settings: {
    issue_funding_enabled: false,
    usage_based_billing_enabled: true,
    reset_proration_behavior_enabled: false,
    seat_based_pricing_enabled: true,
  },
  subscription_settings: {
    allow_multiple_subscriptions: false,
    allow_customer_updates: true,
    proration_behavior: 'prorate',
    benefit_revocation_grace_period: 21,
    prevent_trial_abuse: false,
  },
  status: 'active',
  proration_behavior: 'prorate',
  allow_customer_updates: true,
  default_presentment_currency: 'usd',
  default_tax_behavior: 'exclusive',
  notification_settings: { new_order: true, new_subscription: true },
  customer_email_settings: {
    order_confirmation: true,
    subscription_cancellation: true,
    subscription_confirmation: true,
    subscription_cycled: true,
    subscription_cycled_after_trial: false,
    subscription_past_due: true,
    subscription_renewal_reminder: false,
    subscription_revoked: false,
    subscription_trial_conversion_reminder: false,
    subscription_uncanceled: false,
    subscription_updated: false,
    payment_method_expiration_reminder: false,
    subscription_paused: false,
    subscription_resumed: false,
  },
  customer_portal_settings: {
    usage: { show: true },
    subscription: { update_seats: false, update_plan: true, pause: false },
    customer: { allow_email_change: true },
  },
  dispute_settings: { auto_accept_below_amount: null, revoke_benefits: false },
  embed_hosts: [],
  onboarding_resubmission_requested_at: null,
  sso_enforced: false,
  account_id: null,
  payout_account_id: null,
  capabilities: {
    checkout_payments: true,
    subscription_renewals: true,
    payouts: false,
    refunds: true,
    api_access: true,
    dashboard_access: true,
  },
};

const billingAddress = {
  line1: '1 Market St',
  line2: null,
  postal_code: '94105',
  city: 'San Francisco',
  state: 'US-CA',
  country: 'US',
};

const customer = {
  ...stamps,
  id: ids.customer,
  metadata: { crm_id: 'c-42' },
  external_id: 'user_42',
  email: 'ada@example.test',
  email_verified: true,
  name: 'Ada Lovelace',
  billing_name: 'Lovelace Analytics Ltd',
  billing_address: billingAddress,
  tax_id: ['DE123456789', 'eu_vat'],
  organization_id: ids.organization,
  deleted_at: null,
  first_user_event_at: at,
  avatar_url: 'https://www.gravatar.com/avatar/0?d=404',
  type: 'individual',
};

const portalCustomer = {
  ...stamps,
  id: ids.customer,
  email: 'ada@example.test',
  email_verified: true,
  name: 'Ada Lovelace',
  billing_name: 'Lovelace Analytics Ltd',
  billing_address: billingAddress,
  tax_id: ['DE123456789', 'eu_vat'],
  oauth_accounts: { github: { account_id: '583231', account_username: 'octocat' } },
};

const fixedPrice = {
  ...stamps,
  id: ids.price,
  is_archived: false,
  product_id: ids.product,
  type: 'recurring',
  recurring_interval: 'month',
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'fixed',
  price_currency: 'usd',
  price_amount: 1900,
};

const benefitPublic = {
  ...stamps,
  id: ids.benefit,
  type: 'license_keys',
  description: 'A license key',
  selectable: true,
  deletable: true,
  is_deleted: false,
  organization_id: ids.organization,
};

/** What every stored file shows, whatever it serves. */
const fileFields = {
  organization_id: ids.organization,
  storage_version: null,
  checksum_etag: '"9b2cf535f27731c974343645a3985328"',
  checksum_sha256_base64: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
  checksum_sha256_hex: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  last_modified_at: at,
  is_uploaded: true,
};

const media = {
  ...fileFields,
  id: ids.media,
  name: 'cover.png',
  path: `${ids.organization}/product_media/cover.png`,
  mime_type: 'image/png',
  size: 48213,
  version: null,
  size_readable: '47.1 KB',
  service: 'product_media',
  created_at: at,
  public_url: 'https://files.acme.test/cover.png',
};

const customerProduct = {
  ...stamps,
  id: ids.product,
  name: 'Team plan',
  description: 'Everything a team of five needs.',
  recurring_interval: 'month',
  is_recurring: true,
  is_archived: false,
  recurring_interval_count: 1,
  meter_interval: null,
  meter_interval_count: null,
  trial_interval: null,
  trial_interval_count: null,
  visibility: 'public',
  organization_id: ids.organization,
  is_deletable: false,
  prices: [fixedPrice],
  benefits: [benefitPublic],
  medias: [media],
  pause_keeps_benefits: false,
};

const subscriptionFields = {
  ...stamps,
  id: ids.subscription,
  amount: 1520,
  currency: 'usd',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  status: 'active',
  current_period_start: at,
  current_period_end: periodEnd,
  trial_start: null,
  trial_end: null,
  current_meter_period_start: null,
  current_meter_period_end: null,
  cancel_at_period_end: true,
  pause_at_period_end: false,
  paused_at: null,
  resumes_at: null,
  units: null,
  canceled_at: '2026-02-10T08:00:00.000Z',
  started_at: at,
  ends_at: periodEnd,
  ended_at: null,
  past_due_at: null,
  customer_id: ids.customer,
  product_id: ids.product,
  discount_id: ids.discount,
  checkout_id: ids.checkout,
  customer_cancellation_reason: 'too_expensive',
  customer_cancellation_comment: 'Over budget this quarter.',
};

const customerOrder = {
  id: ids.order,
  ...stamps,
  status: 'paid',
  paid: true,
  subtotal_amount: 1900,
  discount_amount: 380,
  net_amount: 1520,
  amount: 1520,
  tax_amount: 133,
  total_amount: 1653,
  refunded_amount: 0,
  refunded_tax_amount: 0,
  units: null,
  refundable_amount: 1520,
  refundable_tax_amount: 133,
  due_amount: 0,
  applied_balance_amount: 0,
  platform_fee_amount: 0,
  platform_fee_currency: null,
  invoice_number: 'ACME-0001',
  receipt_number: null,
  currency: 'usd',
  billing_reason: 'subscription_create',
  billing_name: 'Ada Lovelace',
  billing_address: billingAddress,
  is_invoice_generated: true,
  customer_id: ids.customer,
  product_id: ids.product,
  discount_id: ids.discount,
  subscription_id: ids.subscription,
  checkout_id: ids.checkout,
  user_id: ids.customer,
  product: { ...customerProduct, organization },
  subscription: subscriptionFields,
  payment_confirmation: null,
  items: [
    {
      ...stamps,
      id: ids.orderItem,
      label: 'Team plan (monthly)',
      amount: 1900,
      tax_amount: 133,
      proration: false,
      product_price_id: ids.price,
      start_timestamp: null,
      end_timestamp: null,
    },
  ],
  description: 'Team plan (monthly)',
};

const customerSubscription = {
  ...subscriptionFields,
  product: { ...customerProduct, organization },
  prices: [fixedPrice],
  meters: [
    {
      ...stamps,
      id: ids.subscriptionMeter,
      consumed_units: 12.5,
      credited_units: 0,
      amount: 625,
      meter_id: ids.meter,
      meter: { ...stamps, id: ids.meter, name: 'API calls' },
    },
  ],
  // Our extension: the SDK reads past it.
  pending_update: null,
  price_schedule: [{ amount: 1500, periods: null, starts_at: at, ends_at: null }],
  payment_confirmation: null,
};

const grantOf = (type: string, benefitProperties: object, properties: object) => ({
  ...stamps,
  id: ids.grant,
  granted_at: at,
  revoked_at: null,
  customer_id: ids.customer,
  benefit_id: ids.benefit,
  subscription_id: ids.subscription,
  order_id: ids.order,
  is_granted: true,
  is_revoked: false,
  customer: portalCustomer,
  benefit: {
    ...stamps,
    id: ids.benefit,
    type,
    description: `A ${type} benefit`,
    selectable: true,
    deletable: true,
    is_deleted: false,
    organization_id: ids.organization,
    metadata: {},
    organization,
    properties: benefitProperties,
  },
  properties,
});

const grants = {
  custom: grantOf('custom', { note: 'Book your onboarding call at https://cal.acme.test.' }, {}),
  discord: grantOf(
    'discord',
    { guild_id: '1234567890123456789' },
    { account_id: '80351110224678912', guild_id: '1234567890123456789', role_id: '2234567890123456789' },
  ),
  github_repository: grantOf(
    'github_repository',
    { repository_owner: 'acme', repository_name: 'tools-pro' },
    { account_id: '583231', repository_owner: 'acme', repository_name: 'tools-pro', permission: 'pull' },
  ),
  downloadables: grantOf('downloadables', { active_files: [ids.file] }, { files: [ids.file] }),
  license_keys: grantOf(
    'license_keys',
    {
      prefix: 'ACME',
      expires: { ttl: 1, timeframe: 'year' },
      activations: { limit: 3, enable_customer_admin: true },
      limit_usage: null,
    },
    { license_key_id: ids.licenseKey, display_key: '****-E4D2' },
  ),
  meter_credit: grantOf(
    'meter_credit',
    { units: 1000, rollover: false, meter_id: ids.meter },
    { last_credited_meter_id: ids.meter, last_credited_units: 1000, last_credited_at: at },
  ),
};

const downloadable = {
  id: ids.downloadable,
  benefit_id: ids.benefit,
  file: {
    ...fileFields,
    id: ids.file,
    name: 'handbook.pdf',
    path: `${ids.organization}/downloadable/handbook.pdf`,
    mime_type: 'application/pdf',
    size: 482133,
    version: '1.2',
    size_readable: '470.8 KB',
    service: 'downloadable',
    download: {
      url: 'https://files.acme.test/handbook.pdf?X-Amz-Signature=abc',
      headers: {},
      expires_at: '2026-01-31T11:00:00.000Z',
    },
  },
};

const customerCustomerMeter = {
  id: ids.customerMeter,
  ...stamps,
  customer_id: ids.customer,
  meter_id: ids.meter,
  consumed_units: 12.5,
  credited_units: 1000,
  balance: 987.5,
  meter: { ...stamps, id: ids.meter, name: 'API calls' },
};

const licenseKey = {
  id: ids.licenseKey,
  ...stamps,
  organization_id: ids.organization,
  customer_id: ids.customer,
  customer,
  member_id: null,
  member: null,
  benefit_id: ids.benefit,
  key: 'ACME-2B1F4E7A-9C3D-4F6B-8E1A-5D7C9B3FE4D2',
  display_key: '****-E4D2',
  status: 'granted',
  limit_activations: 3,
  usage: 1,
  limit_usage: null,
  validations: 4,
  last_validated_at: at,
  expires_at: '2027-01-31T10:00:00.000Z',
};

/** As validating or activating answers it: with the purchase that granted it (2027-01's fields). */
const grantedLicenseKey = {
  ...licenseKey,
  subscription_id: ids.subscription,
  subscription: {
    id: ids.subscription,
    status: 'active',
    current_period_start: at,
    current_period_end: periodEnd,
    cancel_at_period_end: false,
    ends_at: null,
  },
  order_id: ids.order,
  order: { id: ids.order, created_at: at, status: 'paid', paid: true },
};

const activation = {
  id: ids.activation,
  license_key_id: ids.licenseKey,
  label: 'Ada’s laptop',
  meta: { hostname: 'ada-laptop', cores: 8 },
  ...stamps,
};

const customerSession = {
  ...stamps,
  id: ids.session,
  token: 'tollgate_cst_0123456789abcdefghijklmnopqrstuv',
  expires_at: '2026-01-31T11:00:00.000Z',
  return_url: 'https://app.example.test/account',
  customer_portal_url:
    'https://tollgate.test/portal/acme-tools?customer_session_token=tollgate_cst_0123456789abcdefghijklmnopqrstuv',
  customer_id: ids.customer,
  customer,
};

// ── Helpers ───────────────────────────────────────────────────────────────────────────────────

type Reader = { safeParse(input: unknown): { success: boolean; error?: unknown } };
type Path = (string | number)[];

/** Every path that ends at an object's key, through nested objects and arrays. */
function keyPaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keyPaths(item, [...prefix, index]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [
    [...prefix, key],
    ...keyPaths(child, [...prefix, key]),
  ]);
}

function without(value: unknown, path: Path): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const part of path.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
  delete parent[path[path.length - 1]!];
  return copy;
}

/**
 * Our schema writes `sample` unchanged, the SDK reads what it wrote, and whatever the SDK cannot do
 * without (at any depth) our schema cannot do without either: a response built from our type has
 * every field the SDK needs.
 */
function expectReadBySdk(ours: z.ZodType, sdk: Reader, sample: unknown) {
  const written = ours.parse(sample);
  expect(written).toEqual(sample);
  const read = sdk.safeParse(written);
  expect(read.error).toBeUndefined();
  expect(read.success).toBe(true);
  const laxer = keyPaths(sample)
    .filter((path) => !sdk.safeParse(without(sample, path)).success)
    .filter((path) => ours.safeParse(without(sample, path)).success)
    .map((path) => path.join('.'));
  expect(laxer).toEqual([]);
}

/** The query string the SDK builds, as Express hands it over (a repeated parameter as a list). */
function expressQuery(params: Record<string, unknown>): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(encodeFormQuery(params))) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

// ── Responses ─────────────────────────────────────────────────────────────────────────────────

describe('portal responses are what the SDK reads', () => {
  it('CustomerPortalCustomer', () => {
    expectReadBySdk(customerPortalCustomerSchema, CustomerPortalCustomer$inboundSchema, portalCustomer);
    expectReadBySdk(customerPortalCustomerSchema, CustomerPortalCustomer$inboundSchema, {
      ...portalCustomer,
      oauth_accounts: {},
      tax_id: null,
      billing_address: null,
    });
  });

  it('CustomerOrder, with its product, seller and subscription', () => {
    expectReadBySdk(customerOrderSchema, CustomerOrder$inboundSchema, customerOrder);
    expectReadBySdk(customerOrderSchema, CustomerOrder$inboundSchema, {
      ...customerOrder,
      billing_reason: 'purchase',
      subscription_id: null,
      subscription: null,
    });
  });

  it('CustomerSubscription', () => {
    expectReadBySdk(customerSubscriptionSchema, CustomerSubscription$inboundSchema, customerSubscription);
  });

  it.each(Object.entries(grants))(
    'CustomerBenefitGrant of a %s benefit, read as that type',
    (type, grant) => {
      expectReadBySdk(customerBenefitGrantSchema, CustomerBenefitGrant$inboundSchema, grant);
      const read = CustomerBenefitGrant$inboundSchema.parse(customerBenefitGrantSchema.parse(grant));
      expect(read).toHaveProperty('benefit.type', type);
    },
  );

  it('CustomerBenefitGrant refuses a benefit whose properties are not its type’s', () => {
    const mixed = { ...grants.discord, benefit: { ...grants.discord.benefit, type: 'github_repository' } };
    expect(customerBenefitGrantSchema.safeParse(mixed).success).toBe(false);
  });

  it('DownloadableRead', () => {
    expectReadBySdk(downloadableSchema, DownloadableRead$inboundSchema, downloadable);
  });

  it('CustomerCustomerMeter', () => {
    expectReadBySdk(customerCustomerMeterSchema, CustomerCustomerMeter$inboundSchema, customerCustomerMeter);
  });

  it('CustomerOrganization', () => {
    expectReadBySdk(customerOrganizationSchema, CustomerOrganization$inboundSchema, {
      organization,
      products: [customerProduct],
    });
  });

  it('ValidatedLicenseKey, with and without an activation', () => {
    expectReadBySdk(validatedLicenseKeySchema, ValidatedLicenseKey$inboundSchema, {
      ...grantedLicenseKey,
      activation,
    });
    expectReadBySdk(validatedLicenseKeySchema, ValidatedLicenseKey$inboundSchema, {
      ...grantedLicenseKey,
      activation: null,
    });
  });

  it('LicenseKeyActivationRead', () => {
    expectReadBySdk(licenseKeyActivationSchema, LicenseKeyActivationRead$inboundSchema, {
      ...activation,
      license_key: grantedLicenseKey,
    });
  });

  it('payment methods: a card, and any other kind', () => {
    const card = {
      id: '6f1d2c3b-4a59-4e8f-9d7c-0b1a2c3d4e5f',
      type: 'card',
      created_at: at,
      default: true,
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, wallet: null },
    };
    expectReadBySdk(paymentMethodSchema, PaymentMethodItem$inboundSchema, card);
    expect(PaymentMethodItem$inboundSchema.parse(paymentMethodSchema.parse(card))).toHaveProperty(
      'card.last4',
      '4242',
    );
    expectReadBySdk(paymentMethodSchema, PaymentMethodItem$inboundSchema, {
      id: '7a2e3d4c-5b6a-4f90-8e1d-1c2b3d4e5f60',
      type: 'sepa_debit',
      created_at: at,
      default: false,
    });
  });

  it('CustomerOrderInvoice', () => {
    expectReadBySdk(customerOrderInvoiceSchema, CustomerOrderInvoice$inboundSchema, {
      url: 'https://files.acme.test/invoices/INV-0001.pdf',
    });
  });

  it('CustomerSession', () => {
    expectReadBySdk(customerSessionSchema, CustomerSession$inboundSchema, customerSession);
  });
});

// ── Requests ──────────────────────────────────────────────────────────────────────────────────

describe('portal request bodies accept what the SDK sends', () => {
  it('CustomerPortalCustomerUpdate', () => {
    const sent = CustomerPortalCustomerUpdate$outboundSchema.parse({
      email: 'Ada@Example.test',
      name: 'Ada King',
      billingAddress: { line1: '10 Downing St', postalCode: 'SW1A 2AA', city: 'London', country: 'GB' },
      taxId: 'GB123456789',
    });
    expect(customerPortalCustomerUpdateSchema.parse(sent)).toEqual({
      email: 'ada@example.test',
      name: 'Ada King',
      billing_address: { line1: '10 Downing St', postal_code: 'SW1A 2AA', city: 'London', country: 'GB' },
      tax_id: 'GB123456789',
    });
    expect(
      customerPortalCustomerUpdateSchema.parse(CustomerPortalCustomerUpdate$outboundSchema.parse({})),
    ).toEqual({});
    expect(customerPortalCustomerUpdateSchema.safeParse({ email: 'not an address' }).success).toBe(false);
    expect(customerPortalCustomerUpdateSchema.safeParse({ oauth_accounts: {} }).success).toBe(false);
  });

  it('CustomerSubscriptionUpdate: a plan change, a cancellation, taking it back', () => {
    const sent = (body: Parameters<typeof CustomerSubscriptionUpdate$outboundSchema.parse>[0]) =>
      customerSubscriptionUpdateSchema.parse(CustomerSubscriptionUpdate$outboundSchema.parse(body));
    expect(sent({ productId: ids.product })).toEqual({ product_id: ids.product });
    expect(
      sent({
        cancelAtPeriodEnd: true,
        cancellationReason: 'too_expensive',
        cancellationComment: 'Over budget.',
      }),
    ).toEqual({
      cancel_at_period_end: true,
      cancellation_reason: 'too_expensive',
      cancellation_comment: 'Over budget.',
    });
    expect(sent({ cancelAtPeriodEnd: false })).toEqual({ cancel_at_period_end: false });
  });

  it('CustomerSubscriptionUpdate refuses mixed bodies and names the field at fault', () => {
    expect(
      customerSubscriptionUpdateSchema.safeParse({ product_id: ids.product, cancel_at_period_end: true })
        .success,
    ).toBe(false);
    // The seller's field names are not the portal's.
    expect(
      customerSubscriptionUpdateSchema.safeParse({ customer_cancellation_reason: 'unused' }).success,
    ).toBe(false);
    const parsed = customerSubscriptionUpdateSchema.safeParse({
      cancel_at_period_end: true,
      cancellation_reason: 'bored',
    });
    expect(parsed.success).toBe(false);
    const issues = invalidInputFromZod(parsed.error!, 'body').issues;
    expect(issues.map((issue) => issue.loc.join('.'))).toEqual(['body.cancellation_reason']);
    expect(issues[0]!.msg).toMatch(/^Choose one of: customer_service/);
  });

  it('CustomerOrderUpdate', () => {
    const sent = CustomerOrderUpdate$outboundSchema.parse({
      billingName: 'Lovelace Analytics Ltd',
      billingAddress: {
        line1: '1 Market St',
        city: 'San Francisco',
        postalCode: '94105',
        state: 'CA',
        country: 'US',
      },
    });
    expect(customerOrderUpdateSchema.parse(sent)).toEqual({
      billing_name: 'Lovelace Analytics Ltd',
      billing_address: {
        line1: '1 Market St',
        city: 'San Francisco',
        postal_code: '94105',
        state: 'CA',
        country: 'US',
      },
    });
    expect(
      customerOrderUpdateSchema.parse(
        CustomerOrderUpdate$outboundSchema.parse({ billingName: null, billingAddress: null }),
      ),
    ).toEqual({
      billing_name: null,
      billing_address: null,
    });
  });

  it('CustomerBenefitGrantUpdate, for each benefit type', () => {
    const sent = (body: Parameters<typeof CustomerBenefitGrantUpdate$outboundSchema.parse>[0]) =>
      customerBenefitGrantUpdateSchema.parse(CustomerBenefitGrantUpdate$outboundSchema.parse(body));
    expect(sent({ benefitType: 'discord', properties: { accountId: '80351110224678912' } })).toEqual({
      benefit_type: 'discord',
      properties: { account_id: '80351110224678912' },
    });
    expect(sent({ benefitType: 'github_repository', properties: { accountId: '583231' } })).toEqual({
      benefit_type: 'github_repository',
      properties: { account_id: '583231' },
    });
    for (const benefitType of ['custom', 'downloadables', 'license_keys', 'meter_credit'] as const) {
      expect(sent({ benefitType })).toEqual({ benefit_type: benefitType });
    }
  });

  it('CustomerBenefitGrantUpdate explains an unknown type and a missing account', () => {
    const locsOf = (body: unknown) => {
      const parsed = customerBenefitGrantUpdateSchema.safeParse(body);
      expect(parsed.success).toBe(false);
      return invalidInputFromZod(parsed.error!, 'body').issues;
    };
    expect(locsOf({ benefit_type: 'slack' })[0]!.msg).toMatch(/^benefit_type must be the benefit's type/);
    expect(locsOf({ benefit_type: 'discord' }).map((issue) => issue.loc.join('.'))).toEqual([
      'body.properties',
    ]);
    expect(locsOf({ benefit_type: 'custom', properties: {} }).map((issue) => issue.loc.join('.'))).toEqual([
      'body',
    ]);
  });

  it('LicenseKeyValidate', () => {
    const sent = LicenseKeyValidate$outboundSchema.parse({
      key: licenseKey.key,
      organizationId: ids.organization,
      activationId: ids.activation,
      benefitId: ids.benefit,
      customerId: ids.customer,
      incrementUsage: 1,
      conditions: { major_version: 2 },
    });
    expect(licenseKeyValidateSchema.parse(sent)).toEqual({
      key: licenseKey.key,
      organization_id: ids.organization,
      activation_id: ids.activation,
      benefit_id: ids.benefit,
      customer_id: ids.customer,
      increment_usage: 1,
      conditions: { major_version: 2 },
    });
    expect(
      licenseKeyValidateSchema.parse(
        LicenseKeyValidate$outboundSchema.parse({ key: 'k', organizationId: ids.organization }),
      ),
    ).toEqual({ key: 'k', organization_id: ids.organization });
    const refused = licenseKeyValidateSchema.safeParse({ key: 'k', organization_id: 'acme' });
    expect(refused.error?.issues[0]?.message).toBe('Not a valid organization id.');
  });

  it('LicenseKeyActivate', () => {
    const sent = LicenseKeyActivate$outboundSchema.parse({
      key: licenseKey.key,
      organizationId: ids.organization,
      label: 'Ada’s laptop',
      conditions: { major_version: 2 },
      meta: { hostname: 'ada-laptop' },
    });
    expect(licenseKeyActivateSchema.parse(sent)).toEqual({
      key: licenseKey.key,
      organization_id: ids.organization,
      label: 'Ada’s laptop',
      conditions: { major_version: 2 },
      meta: { hostname: 'ada-laptop' },
    });
    expect(licenseKeyActivateSchema.safeParse({ ...(sent as object), label: '  ' }).success).toBe(false);
  });

  it('LicenseKeyDeactivate', () => {
    const sent = LicenseKeyDeactivate$outboundSchema.parse({
      key: licenseKey.key,
      organizationId: ids.organization,
      activationId: ids.activation,
    });
    expect(licenseKeyDeactivateSchema.parse(sent)).toEqual({
      key: licenseKey.key,
      organization_id: ids.organization,
      activation_id: ids.activation,
    });
  });

  it('customer session creation, by our id or by the seller’s', () => {
    const sent = (
      body: Parameters<typeof CustomerSessionsCreateCustomerSessionCreate$outboundSchema.parse>[0],
    ) =>
      customerSessionCreateSchema.parse(
        CustomerSessionsCreateCustomerSessionCreate$outboundSchema.parse(body),
      );
    expect(sent({ customerId: ids.customer })).toEqual({ customer_id: ids.customer });
    expect(sent({ customerExternalId: 'user_42' })).toEqual({ customer_external_id: 'user_42' });
    expect(
      customerSessionCreateSchema.safeParse({ customer_id: ids.customer, customer_external_id: 'user_42' })
        .success,
    ).toBe(false);
  });
});

// ── List queries ──────────────────────────────────────────────────────────────────────────────

describe('portal list queries read every parameter the SDK sends', () => {
  // The SDK's own types come out `unknown` under zod 4; what it sends is a plain object.
  const readsAll = (schema: z.ZodType, params: unknown) => {
    const query = expressQuery(params as Record<string, unknown>);
    const parsed = schema.parse(query) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(query).sort());
    return parsed;
  };

  it('orders', () => {
    expect([...customerOrderSortFields]).toEqual(Object.values(CustomerOrderSortProperty));
    const parsed = readsAll(
      customerOrderListQuerySchema,
      CustomerPortalOrdersListRequest$outboundSchema.parse({
        organizationId: ids.organization,
        productId: [ids.product, id(99)],
        productBillingType: 'recurring',
        subscriptionId: ids.subscription,
        query: 'team',
        page: 2,
        limit: 20,
        sorting: ['-created_at', 'product'],
      }),
    );
    expect(parsed).toMatchObject({
      page: 2,
      limit: 20,
      product_id: [ids.product, id(99)],
      sorting: ['-created_at', 'product'],
    });
  });

  it('subscriptions', () => {
    expect([...customerSubscriptionSortFields]).toEqual(Object.values(CustomerSubscriptionSortProperty));
    const parsed = readsAll(
      customerSubscriptionListQuerySchema,
      CustomerPortalSubscriptionsListRequest$outboundSchema.parse({
        organizationId: ids.organization,
        productId: ids.product,
        active: false,
        query: 'team',
        sorting: ['-started_at'],
      }),
    );
    expect(parsed).toMatchObject({ active: false, page: 1, limit: 10 });
  });

  it('benefit grants (the SDK’s typeFilter travels as `type`)', () => {
    // 0.48.1's sort fields, and `product_benefit`, which polar-sdk 1.0.2 sends by default.
    expect([...customerBenefitGrantSortFields]).toEqual([
      ...Object.values(CustomerBenefitGrantSortProperty),
      'product_benefit',
      '-product_benefit',
    ]);
    const { type_filter: typeFilter, ...rest } = CustomerPortalBenefitGrantsListRequest$outboundSchema.parse({
      typeFilter: ['license_keys', 'downloadables'],
      benefitId: ids.benefit,
      organizationId: ids.organization,
      checkoutId: ids.checkout,
      orderId: ids.order,
      subscriptionId: ids.subscription,
      sorting: ['-granted_at'],
    }) as Record<string, unknown>;
    const parsed = readsAll(customerBenefitGrantListQuerySchema, { ...rest, type: typeFilter });
    expect(parsed).toMatchObject({ type: ['license_keys', 'downloadables'], benefit_id: [ids.benefit] });
  });

  it('license keys (one benefit id)', () => {
    const parsed = readsAll(
      customerLicenseKeyListQuerySchema,
      CustomerPortalLicenseKeysListRequest$outboundSchema.parse({
        organizationId: [ids.organization],
        benefitId: ids.benefit,
      }),
    );
    expect(parsed).toMatchObject({ benefit_id: ids.benefit, organization_id: [ids.organization] });
  });

  it('downloadables', () => {
    readsAll(
      downloadableListQuerySchema,
      CustomerPortalDownloadablesListRequest$outboundSchema.parse({
        organizationId: ids.organization,
        benefitId: [ids.benefit],
        page: 3,
      }),
    );
  });

  it('customer meters', () => {
    expect([...customerCustomerMeterSortFields]).toEqual(Object.values(CustomerCustomerMeterSortProperty));
    const parsed = readsAll(
      customerCustomerMeterListQuerySchema,
      CustomerPortalCustomerMetersListRequest$outboundSchema.parse({
        meterId: ids.meter,
        query: 'api',
        sorting: ['-balance', 'meter_name'],
      }),
    );
    expect(parsed).toMatchObject({ meter_id: [ids.meter], sorting: ['-balance', 'meter_name'] });
  });

  it('refuses the seller’s sort fields and filters the portal does not have', () => {
    expect(customerOrderListQuerySchema.safeParse({ sorting: 'customer' }).success).toBe(false);
    expect(customerCustomerMeterListQuerySchema.safeParse({ sorting: 'customer_name' }).success).toBe(false);
    expect(customerSubscriptionListQuerySchema.safeParse({ sorting: 'current_period_end' }).success).toBe(
      false,
    );
  });
});
