// What a seat's numbers and links are, apart from any I/O.

/** Polar's claim link lasts a day; a resend gives a new one. */
export const INVITATION_TTL_MS = 24 * 60 * 60 * 1000;
export const INVITATION_TOKEN_PREFIX = 'tollgate_seat_';

export const looksLikeInvitationToken = (token: string) =>
  token.startsWith(INVITATION_TOKEN_PREFIX) && token.length <= 100;

/**
 * Seats still to give: the purchase's seats, or fewer when a decrease waits for the renewal (a
 * seat given now would be over the count the renewal applies), less the live ones.
 */
export function availableSeats(total: number, scheduled: number | null, live: number): number {
  return Math.max(0, Math.min(total, scheduled ?? total) - live);
}

/** The page the invitation opens: the portal's claim page of the seller. */
export const seatClaimUrl = (publicUrl: string, organizationSlug: string, token: string) =>
  `${publicUrl}/portal/${encodeURIComponent(organizationSlug)}/claim?invitation_token=${encodeURIComponent(token)}`;
