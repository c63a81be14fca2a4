// The signed-in customer changes their email address (Polar's portal `customers/me/email-update`):
// asked for with a customer session; checked and confirmed with the emailed link's token alone,
// since the buyer may open it in another browser.
import { z } from 'zod';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import {
  checkEmailUpdate,
  requestEmailUpdate,
  verifyEmailUpdate,
} from '../../../domain/customer-sessions/email-updates.js';
import {
  customerEmailUpdateCheckQuerySchema,
  customerEmailUpdateRequestSchema,
  customerEmailUpdateVerifiedSchema,
  customerEmailUpdateVerifySchema,
} from '../../../domain/customer-sessions/schemas.js';
import type { Mailer } from '../../../domain/emails/mailer.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalEmailUpdateOperations(
  api: OperationRegistry,
  ctx: PortalContext & { mailer: Mailer },
) {
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/customers/me/email-update/request',
      operationId: 'customer_portal:customers:request_email_update',
      summary: 'Email a link that confirms a new email address (valid 30 minutes, once)',
      tag,
      body: customerEmailUpdateRequestSchema,
      status: 202,
      response: z.object({}),
    },
    async ({ customer, body }) => {
      await requestEmailUpdate(ctx, customer, body);
      return {};
    },
  );
  api.addPublic(
    {
      method: 'get',
      path: '/customer-portal/customers/me/email-update/check',
      operationId: 'customer_portal:customers:check_email_update',
      summary: 'Whether an emailed link to confirm a new address still works',
      tag,
      query: customerEmailUpdateCheckQuerySchema,
      status: 204,
      errors: ['InvalidCustomerEmailUpdate'],
    },
    async ({ query }) => {
      await checkEmailUpdate(ctx.db, query.token);
    },
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/customers/me/email-update/verify',
      operationId: 'customer_portal:customers:verify_email_update',
      summary: "Confirm the new address: it becomes the customer's; answers a new customer session",
      tag,
      body: customerEmailUpdateVerifySchema,
      status: 200,
      response: customerEmailUpdateVerifiedSchema,
      errors: ['InvalidCustomerEmailUpdate'],
    },
    ({ body }) => verifyEmailUpdate(ctx, body.token),
  );
}
