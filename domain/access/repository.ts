import type { Db } from '../../infra/db.js';

export function findMembership(db: Db, organizationId: string, userId: string) {
  return db.member.findFirst({ where: { organizationId, userId }, select: { id: true, role: true } });
}

export async function listMemberOrganizationIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.member.findMany({ where: { userId }, select: { organizationId: true } });
  return rows.map((row) => row.organizationId);
}

export function listMemberships(db: Db, userId: string) {
  return db.member.findMany({ where: { userId }, select: { organizationId: true, role: true } });
}

/** Every member of the organization with who they are (for notices to its owners). */
export function listOrganizationMembersWithUsers(db: Db, organizationId: string) {
  return db.member.findMany({
    where: { organizationId },
    select: { role: true, user: { select: { email: true, name: true } } },
  });
}

/** A member's role and their own choice of the "New order" email (null: their role's default). */
export function findMemberNotificationChoice(db: Db, organizationId: string, userId: string) {
  return db.member.findFirst({
    where: { organizationId, userId },
    select: { id: true, role: true, newOrderEmail: true },
  });
}

export function setMemberNewOrderEmail(db: Db, memberId: string, choice: boolean | null) {
  return db.member.update({
    where: { id: memberId },
    data: { newOrderEmail: choice },
    select: { id: true, role: true, newOrderEmail: true },
  });
}

/** Every member with their choice of the "New order" email and their address. */
export function listNewOrderEmailCandidates(db: Db, organizationId: string) {
  return db.member.findMany({
    where: { organizationId },
    select: { role: true, newOrderEmail: true, userId: true, user: { select: { email: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  });
}
