import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  customerBenefitGrantListQuerySchema,
  customerBenefitGrantSchema,
  customerBenefitGrantUpdateSchema,
  customerCustomerMeterListQuerySchema,
  customerCustomerMeterSchema,
  customerLicenseKeyListQuerySchema,
  customerLicenseKeySchema,
  customerOrganizationSchema,
  customerPortalCustomerSchema,
  customerPortalCustomerUpdateSchema,
  customerSessionCreateSchema,
  customerSessionSchema,
  customerSubscriptionListQuerySchema,
  customerSubscriptionSchema,
  customerSubscriptionUpdateSchema,
  downloadableListQuerySchema,
  downloadableSchema,
  licenseKeyActivateSchema,
  licenseKeyActivationSchema,
  licenseKeyDeactivateSchema,
  licenseKeyValidateSchema,
  validatedLicenseKeySchema,
} from '../../domain/customer-portal/schemas.js';
import {
  cancelPortalSubscription,
  followDownloadLink,
  getPortalCustomer,
  getPortalGrant,
  getPortalLicenseKey,
  getPortalMeter,
  getPortalOrganization,
  getPortalSubscription,
  listPortalDownloadables,
  listPortalGrants,
  listPortalLicenseKeys,
  listPortalMeters,
  listPortalSubscriptions,
  retryPortalSubscriptionPayment,
  updatePortalCustomer,
  updatePortalGrant,
  updatePortalSubscription,
  type PortalContext,
} from '../../domain/customer-portal/service.js';
import { endCustomerSession } from '../../domain/customer-portal/sign-in.js';
import {
  createCustomerSession,
  requestPortalSignInCode,
  verifyPortalSignInCode,
} from '../../domain/customer-sessions/service.js';
import {
  portalSignInRequestSchema,
  portalSignInSchema,
  portalSignInVerifySchema,
} from '../../domain/customer-sessions/schemas.js';
import type { Mailer } from '../../domain/emails/mailer.js';
import {
  paymentMethodCreateSchema,
  paymentMethodParamsSchema,
  paymentMethodSchema,
  paymentMethodUpdateSchema,
} from '../../domain/payment-methods/schemas.js';
import {
  addPortalPaymentMethod,
  deletePortalPaymentMethod,
  listPortalPaymentMethods,
  setDefaultPortalPaymentMethod,
} from '../../domain/payment-methods/service.js';
import { prorationPreviewSchema } from '../../domain/subscriptions/schemas.js';
import { previewCustomerSubscriptionChange } from '../../domain/subscriptions/customer-changes.js';
import { licenseKeyWithActivationsSchema } from '../../domain/license-keys/schemas.js';
import {
  activateLicenseKey,
  deactivateLicenseKey,
  validateLicenseKey,
} from '../../domain/license-keys/service.js';
import { idParamsSchema, listResourceSchema, pageQuerySchema } from '../../domain/platform/schemas.js';
import type { OperationRegistry } from '../http/operations.js';

/** POST /v1/customer-sessions/: the seller's app signs its customer into the portal. */
export function registerCustomerSessionOperations(api: OperationRegistry, ctx: PortalContext) {
  api.add(
    {
      method: 'post',
      path: '/customer-sessions/',
      operationId: 'customer-sessions:create',
      summary: 'Create a customer session (a sign-in to the customer portal)',
      tag: 'customer_sessions',
      body: customerSessionCreateSchema,
      response: customerSessionSchema,
      errors: ['NotPermitted'],
    },
    async ({ body, caller }) => createCustomerSession(ctx.db, caller, body, ctx.publicUrl),
  );
}

const tag = 'customer_portal';
const slugParamsSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,128}$/, 'Not an organization slug.'),
});
/** `<downloadable id>.<expiry ms>.<signature>` (domain/downloadables/rules.ts). */
const tokenParamsSchema = z.object({
  token: z
    .string()
    .regex(
      /^[0-9a-f-]{36}\.[0-9]{13}\.[A-Za-z0-9_-]{43}$/,
      'Not a download link: open your downloads for a new one.',
    ),
});

/**
 * The customer portal's operations, its orders aside (`customer-portal-orders.ts`). Those of a
 * signed-in customer take a customer session; the seller's page, the license-key checks and a
 * download link take none (the key or the link is the credential).
 */
export function registerCustomerPortalOperations(
  api: OperationRegistry,
  ctx: PortalContext & { mailer: Mailer },
) {
  // Signing in by email (our extension) ------------------------------------------------------------
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/sign-in/request',
      operationId: 'customer_portal:sign_in:request',
      summary: 'Email a sign-in code to a customer',
      extension:
        'Tollgate extension, not in Polar: emails a 6-digit code (10 minutes, 5 tries) to the customer of the organization with this address; answers the same whether or not there is one.',
      tag,
      body: portalSignInRequestSchema,
      status: 202,
      response: z.object({}),
      errors: ['ResourceNotFound'],
    },
    async ({ body }) => {
      await requestPortalSignInCode(ctx, body);
      return {};
    },
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/customer-session',
      operationId: 'customer_portal:customer_session:delete',
      summary: 'Sign out: the session token stops working',
      extension: 'Tollgate extension, not in Polar: ends the calling customer session at once.',
      tag,
      status: 204,
    },
    async ({ customer }) => {
      await endCustomerSession(ctx.db, customer);
    },
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/sign-in/verify',
      operationId: 'customer_portal:sign_in:verify',
      summary: 'Exchange an emailed code for a customer session',
      extension: 'Tollgate extension, not in Polar: the token of a one-hour customer session.',
      tag,
      body: portalSignInVerifySchema,
      status: 200,
      response: portalSignInSchema,
      errors: ['ResourceNotFound'],
    },
    ({ body }) => verifyPortalSignInCode(ctx.db, body),
  );

  // Customer ------------------------------------------------------------------------------------------
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/customers/me',
      operationId: 'customer_portal:customers:get',
      summary: 'The signed-in customer',
      tag,
      response: customerPortalCustomerSchema,
    },
    ({ customer }) => getPortalCustomer(ctx, customer),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/customers/me',
      operationId: 'customer_portal:customers:update',
      summary: 'Update the signed-in customer',
      tag,
      body: customerPortalCustomerUpdateSchema,
      response: customerPortalCustomerSchema,
    },
    ({ customer, body }) => updatePortalCustomer(ctx, customer, body),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/customers/me/payment-methods',
      operationId: 'customer_portal:customers:get_payment_methods',
      summary: "List the customer's saved cards, the default first",
      tag,
      query: pageQuerySchema,
      response: listResourceSchema(paymentMethodSchema),
    },
    ({ customer, query }) => listPortalPaymentMethods(ctx.paymentMethods, customer, query),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/customers/me/payment-methods',
      operationId: 'customer_portal:customers:add_payment_method',
      // With `set_default` (or no default yet) every plan of the customer renews on the new card,
      // and a plan in dunning is charged again at once.
      summary: 'Save a card; as the default, every plan renews on it',
      tag,
      body: paymentMethodCreateSchema,
      status: 201,
      response: paymentMethodSchema,
      errors: ['ServiceUnavailable'],
    },
    ({ customer, body }) => addPortalPaymentMethod(ctx.paymentMethods, customer, body, randomUUID()),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/customers/me/payment-methods/{id}',
      operationId: 'customer_portal:customers:update_payment_method',
      summary: 'Make a saved card the default',
      extension:
        'Tollgate extension, not in Polar: the card becomes the default and every plan of the customer renews on it.',
      tag,
      params: paymentMethodParamsSchema,
      body: paymentMethodUpdateSchema,
      response: paymentMethodSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => setDefaultPortalPaymentMethod(ctx.paymentMethods, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/customers/me/payment-methods/{id}',
      operationId: 'customer_portal:customers:delete_payment_method',
      // Plans renewing on it move to the default card; the only card of a plan that still renews
      // cannot be deleted (422).
      summary: 'Delete a saved card (never the only card a plan renews on)',
      tag,
      params: paymentMethodParamsSchema,
      status: 204,
      errors: ['ResourceNotFound'],
    },
    async ({ customer, params }) => {
      await deletePortalPaymentMethod(ctx.paymentMethods, customer, params.id);
    },
  );

  // Subscriptions ------------------------------------------------------------------------------------------
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/subscriptions/',
      operationId: 'customer_portal:subscriptions:list',
      summary: "List the customer's subscriptions",
      tag,
      query: customerSubscriptionListQuerySchema,
      response: listResourceSchema(customerSubscriptionSchema),
    },
    ({ customer, query }) => listPortalSubscriptions(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/subscriptions/{id}',
      operationId: 'customer_portal:subscriptions:get',
      summary: 'Get a subscription',
      tag,
      params: idParamsSchema,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalSubscription(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/subscriptions/{id}',
      operationId: 'customer_portal:subscriptions:update',
      summary: 'Change plan, cancel at the period end, or resume',
      tag,
      params: idParamsSchema,
      body: customerSubscriptionUpdateSchema,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound', 'NotPermitted', 'AlreadyCanceledSubscription'],
    },
    ({ customer, params, body }) => updatePortalSubscription(ctx, customer, params.id, body),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/subscriptions/{id}/proration-preview',
      operationId: 'customer_portal:subscriptions:proration_preview',
      summary: 'Preview what a plan change would bill',
      extension:
        "Tollgate extension, not in Polar: the customer sees the bill of a plan change (at the seller's proration default) before confirming it.",
      tag,
      params: idParamsSchema,
      body: z.strictObject({ product_id: z.uuid({ message: 'Not a valid product id.' }) }),
      status: 200,
      response: prorationPreviewSchema,
      errors: ['ResourceNotFound', 'NotPermitted', 'AlreadyCanceledSubscription'],
    },
    ({ customer, params, body }) =>
      previewCustomerSubscriptionChange(ctx.subscriptions, customer, params.id, body.product_id),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/subscriptions/{id}/retry-payment',
      operationId: 'customer_portal:subscriptions:retry_payment',
      summary: 'Try the failed renewal again now',
      extension:
        'Tollgate extension, not in Polar: a plan in dunning (past_due) is charged again at once instead of at its next scheduled try; at most once an hour, as each failed try counts.',
      tag,
      params: idParamsSchema,
      status: 202,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound', 'Conflict', 'TooManyRequests'],
    },
    ({ customer, params }) => retryPortalSubscriptionPayment(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/subscriptions/{id}',
      operationId: 'customer_portal:subscriptions:cancel',
      summary: 'Cancel at the end of the period',
      tag,
      params: idParamsSchema,
      status: 200,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound', 'AlreadyCanceledSubscription'],
    },
    ({ customer, params }) => cancelPortalSubscription(ctx, customer, params.id),
  );

  // Benefit grants -----------------------------------------------------------------------------------------
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/benefit-grants/',
      operationId: 'customer_portal:benefit-grants:list',
      summary: 'List what the customer was granted',
      tag,
      query: customerBenefitGrantListQuerySchema,
      response: listResourceSchema(customerBenefitGrantSchema),
    },
    ({ customer, query }) => listPortalGrants(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/benefit-grants/{id}',
      operationId: 'customer_portal:benefit-grants:get',
      summary: 'Get a benefit grant',
      tag,
      params: idParamsSchema,
      response: customerBenefitGrantSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalGrant(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/benefit-grants/{id}',
      operationId: 'customer_portal:benefit-grants:update',
      summary: 'Update a benefit grant (the account a GitHub or Discord benefit goes to)',
      tag,
      params: idParamsSchema,
      body: customerBenefitGrantUpdateSchema,
      response: customerBenefitGrantSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params, body }) => updatePortalGrant(ctx, customer, params.id, body),
  );

  // License keys ---------------------------------------------------------------------------------------------
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/license-keys/',
      operationId: 'customer_portal:license_keys:list',
      summary: "List the customer's license keys",
      tag,
      query: customerLicenseKeyListQuerySchema,
      response: listResourceSchema(customerLicenseKeySchema),
    },
    ({ customer, query }) => listPortalLicenseKeys(ctx, customer, query),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/license-keys/validate',
      operationId: 'customer_portal:license_keys:validate',
      summary: 'Check a license key (no credentials: the key is one)',
      tag,
      body: licenseKeyValidateSchema,
      status: 200,
      response: validatedLicenseKeySchema,
      errors: ['ResourceNotFound', 'BadRequest'],
    },
    ({ body }) => validateLicenseKey(ctx.db, body),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/license-keys/activate',
      operationId: 'customer_portal:license_keys:activate',
      summary: 'Activate a license key on a device',
      tag,
      body: licenseKeyActivateSchema,
      status: 200,
      response: licenseKeyActivationSchema,
      errors: ['ResourceNotFound', 'NotPermitted'],
    },
    ({ body }) => activateLicenseKey(ctx.db, body),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/license-keys/deactivate',
      operationId: 'customer_portal:license_keys:deactivate',
      summary: 'Deactivate a license key on a device',
      tag,
      body: licenseKeyDeactivateSchema,
      status: 204,
      errors: ['ResourceNotFound'],
    },
    async ({ body }) => {
      await deactivateLicenseKey(ctx.db, body);
    },
  );

  // After the checks: `/license-keys/{id}` would otherwise claim `validate` and the others.
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/license-keys/{id}',
      operationId: 'customer_portal:license_keys:get',
      summary: 'Get a license key with its activations',
      tag,
      params: idParamsSchema,
      response: licenseKeyWithActivationsSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalLicenseKey(ctx, customer, params.id),
  );
  // Downloadables ------------------------------------------------------------------------------------------
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/downloadables/',
      operationId: 'customer_portal:downloadables:list',
      summary: "List the customer's files, with download links valid 10 minutes",
      tag,
      query: downloadableListQuerySchema,
      response: listResourceSchema(downloadableSchema),
    },
    ({ customer, query }) => listPortalDownloadables(ctx, customer, query),
  );
  api.addPublic(
    {
      method: 'get',
      path: '/customer-portal/downloadables/{token}',
      operationId: 'customer_portal:downloadables:get',
      summary: 'Follow a download link (302 to the file)',
      tag,
      params: tokenParamsSchema,
      errors: ['BadRequest', 'ResourceNotFound', 'ResourceUnavailable'],
    },
    async ({ params, res }) => {
      res.redirect(302, await followDownloadLink(ctx, params.token));
    },
  );

  // Meters ---------------------------------------------------------------------------------------------------
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/meters/',
      operationId: 'customer_portal:customer_meters:list',
      summary: "List the customer's meters",
      tag,
      query: customerCustomerMeterListQuerySchema,
      response: listResourceSchema(customerCustomerMeterSchema),
    },
    ({ customer, query }) => listPortalMeters(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/meters/{id}',
      operationId: 'customer_portal:customer_meters:get',
      summary: 'Get a meter of the customer',
      tag,
      params: idParamsSchema,
      response: customerCustomerMeterSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalMeter(ctx, customer, params.id),
  );

  // The seller --------------------------------------------------------------------------------------------
  api.addPublic(
    {
      method: 'get',
      path: '/customer-portal/organizations/{slug}',
      operationId: 'customer_portal:organizations:get',
      summary: "The seller's portal page: who they are and what they sell",
      tag,
      params: slugParamsSchema,
      response: customerOrganizationSchema,
      errors: ['ResourceNotFound'],
    },
    ({ params }) => getPortalOrganization(ctx, params.slug),
  );
}
