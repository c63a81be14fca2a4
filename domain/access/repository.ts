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
