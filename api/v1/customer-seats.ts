import {
  customerSeatClaimResponseSchema,
  customerSeatSchema,
  invitationTokenParamsSchema,
  seatAssignSchema,
  seatClaimInfoSchema,
  seatClaimSchema,
  seatIdParamsSchema,
  seatListQuerySchema,
  seatsListSchema,
} from '../../domain/customer-seats/schemas.js';
import {
  assignSeat,
  claimSeat,
  listSeats,
  resendInvitation,
  revokeSeat,
  seatClaimInfo,
  type SeatContext,
} from '../../domain/customer-seats/service.js';
import type { OperationRegistry } from '../http/operations.js';

const tag = 'customer_seats';

/**
 * What the invited person calls from the claim page, with the link's token and no sign-in (before
 * the organizations' authentication).
 */
export function registerSeatClaimOperations(api: OperationRegistry, ctx: SeatContext) {
  api.addPublic(
    {
      method: 'get',
      path: '/customer-seats/claim/{invitation_token}',
      operationId: 'customer-seats:get_claim_info',
      summary: 'What a seat invitation gives, before it is accepted',
      tag,
      params: invitationTokenParamsSchema,
      response: seatClaimInfoSchema,
      errors: ['InvalidInvitationToken'],
    },
    async ({ params }) => seatClaimInfo(ctx.db, params.invitation_token),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-seats/claim',
      operationId: 'customer-seats:claim_seat',
      summary: 'Accept a seat invitation: the seat and its benefits become the invited person’s',
      tag,
      body: seatClaimSchema,
      status: 200,
      response: customerSeatClaimResponseSchema,
      errors: ['InvalidInvitationToken', 'SeatNotAvailable'],
    },
    async ({ body }) => claimSeat(ctx.db, body.invitation_token),
  );
}

/** The seller's seat operations, on a subscription or one-time order bought with seats. */
export function registerCustomerSeatOperations(api: OperationRegistry, ctx: SeatContext) {
  const errors = ['ResourceNotFound', 'NotPermitted', 'FeatureNotEnabled', 'SeatNotAvailable'] as const;
  api.add(
    {
      method: 'get',
      path: '/customer-seats',
      operationId: 'customer-seats:list_seats',
      summary: 'List the seats of a subscription or order, with how many are left to give',
      tag,
      query: seatListQuerySchema,
      response: seatsListSchema,
      errors,
    },
    async ({ query, caller }) => listSeats(ctx.db, caller, query),
  );
  api.add(
    {
      method: 'post',
      path: '/customer-seats',
      operationId: 'customer-seats:assign_seat',
      summary: 'Give a seat to a person by email or customer: they are invited to claim it',
      tag,
      body: seatAssignSchema,
      status: 200,
      response: customerSeatSchema,
      errors: [...errors, 'SeatAlreadyAssigned', 'CustomerNotFound'],
    },
    async ({ body, caller }) => assignSeat(ctx, caller, body),
  );
  api.add(
    {
      method: 'delete',
      path: '/customer-seats/{seat_id}',
      operationId: 'customer-seats:revoke_seat',
      summary: 'Take a seat back: its holder loses what it gave',
      tag,
      params: seatIdParamsSchema,
      status: 200,
      response: customerSeatSchema,
      errors,
    },
    async ({ params, caller }) => revokeSeat(ctx.db, caller, params.seat_id),
  );
  api.add(
    {
      method: 'post',
      path: '/customer-seats/{seat_id}/resend',
      operationId: 'customer-seats:resend_invitation',
      summary: 'Send a pending seat’s invitation again, with a new link',
      tag,
      params: seatIdParamsSchema,
      status: 200,
      response: customerSeatSchema,
      errors: [...errors, 'SeatNotPending'],
    },
    async ({ params, caller }) => resendInvitation(ctx, caller, params.seat_id),
  );
}
