import type { Db } from '../../infra/db.js';

export function findInvitationState(db: Db, id: string) {
  return db.invitation.findUnique({ where: { id }, select: { status: true, expiresAt: true } });
}

export function findInvitationForEmail(db: Db, id: string) {
  return db.invitation.findUnique({
    where: { id },
    select: {
      id: true,
      email: true,
      role: true,
      status: true,
      expiresAt: true,
      organization: { select: { name: true, timeZone: true } },
      inviter: { select: { name: true, email: true } },
    },
  });
}

/** Pending, unexpired invitations created before `createdBefore` (older ones had time to start their workflow). */
export function listOpenInvitationIds(db: Db, { now, createdBefore }: { now: Date; createdBefore: Date }) {
  return db.invitation.findMany({
    where: { status: 'pending', expiresAt: { gt: now }, createdAt: { lt: createdBefore } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** What the start of an invitation's workflow tells operators (temporal/entity-directory.ts). */
export function findInvitationForOperators(db: Db, id: string) {
  return db.invitation.findUnique({
    where: { id },
    select: {
      organizationId: true,
      organization: { select: { name: true } },
      email: true,
      role: true,
      inviter: { select: { name: true } },
      expiresAt: true,
    },
  });
}
