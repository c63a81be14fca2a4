// The buyer's seats in the portal (Polar's portal `seats`): list, invite by email, revoke, resend.
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import { customerSubscriptionSchema } from '../../../domain/customer-portal/schemas.js';
import { listClaimedSeatSubscriptions } from '../../../domain/customer-portal/subscriptions.js';
import {
  assignPortalSeat,
  listPortalSeats,
  resendPortalInvitation,
  revokePortalSeat,
} from '../../../domain/customer-seats/portal.js';
import {
  customerSeatAssignSchema,
  customerSeatSchema,
  seatIdParamsSchema,
  seatListQuerySchema,
  seatsListSchema,
} from '../../../domain/customer-seats/schemas.js';
import type { Mailer } from '../../../domain/emails/mailer.js';
import { listResourceSchema, pageQuerySchema } from '../../../domain/platform/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalSeatOperations(
  api: OperationRegistry,
  ctx: PortalContext & { mailer: Mailer },
) {
  const errors = ['ResourceNotFound', 'FeatureNotEnabled', 'SeatNotAvailable'] as const;
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/seats',
      operationId: 'customer_portal:seats:list_seats',
      summary: 'List the seats of a subscription or order the customer bought',
      tag,
      query: seatListQuerySchema,
      response: seatsListSchema,
      errors,
    },
    ({ customer, query }) => listPortalSeats(ctx.db, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/seats/subscriptions',
      operationId: 'customer_portal:seats:list_claimed_subscriptions',
      summary: 'List the subscriptions in which the customer holds a seat someone gave them',
      tag,
      query: pageQuerySchema,
      response: listResourceSchema(customerSubscriptionSchema),
    },
    ({ customer, query }) => listClaimedSeatSubscriptions(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/seats',
      operationId: 'customer_portal:seats:assign_seat',
      summary: 'Invite a person by email to a seat of a purchase the customer made',
      tag,
      body: customerSeatAssignSchema,
      status: 200,
      response: customerSeatSchema,
      errors: [...errors, 'SeatAlreadyAssigned'],
    },
    ({ customer, body }) => assignPortalSeat(ctx, customer, body),
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/seats/{seat_id}',
      operationId: 'customer_portal:seats:revoke_seat',
      summary: 'Take back a seat the customer gave',
      tag,
      params: seatIdParamsSchema,
      status: 200,
      response: customerSeatSchema,
      errors,
    },
    ({ customer, params }) => revokePortalSeat(ctx.db, customer, params.seat_id),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/seats/{seat_id}/resend',
      operationId: 'customer_portal:seats:resend_invitation',
      summary: 'Send a pending seat’s invitation again, with a new link',
      tag,
      params: seatIdParamsSchema,
      status: 200,
      response: customerSeatSchema,
      errors: [...errors, 'SeatNotPending'],
    },
    ({ customer, params }) => resendPortalInvitation(ctx, customer, params.seat_id),
  );
}
