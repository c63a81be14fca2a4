// Signing a customer into the portal: the seller's app creates a customer session for its customer
// (`/customer-sessions/`, as Polar has it), or the customer signs in by an emailed code and out again
// (our extension). The sign-in needs no session; signing out ends the calling one.
import { z } from 'zod';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import {
  customerSessionCreateSchema,
  customerSessionSchema,
  customerSessionIntrospectionSchema,
  portalAuthenticatedUserSchema,
  portalSignInRequestSchema,
  portalSignInSchema,
  portalSignInVerifySchema,
} from '../../../domain/customer-sessions/schemas.js';
import {
  authenticatedPortalUser,
  endCustomerSession,
  introspectCustomerSession,
} from '../../../domain/customer-portal/sign-in.js';
import {
  createCustomerSession,
  requestPortalSignInCode,
  verifyPortalSignInCode,
} from '../../../domain/customer-sessions/service.js';
import type { Mailer } from '../../../domain/emails/mailer.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

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

/** Signing in by an emailed code and signing out (our extension). */
export function registerPortalSignInOperations(
  api: OperationRegistry,
  ctx: PortalContext & { mailer: Mailer },
) {
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
      method: 'get',
      path: '/customer-portal/customer-session/introspect',
      operationId: 'customer_portal:customer-session:introspect',
      summary: 'When the calling customer session stops working',
      tag,
      response: customerSessionIntrospectionSchema,
    },
    ({ customer }) => introspectCustomerSession(ctx.db, customer),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/customer-session/user',
      operationId: 'customer_portal:customer-session:get_authenticated_user',
      summary: 'Who the calling customer session signs in',
      tag,
      response: portalAuthenticatedUserSchema,
    },
    ({ customer }) => authenticatedPortalUser(ctx.db, customer),
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
}
