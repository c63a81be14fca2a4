import type { Db } from '../../infra/db.js';

export function findOrganizationById(db: Db, id: string) {
  return db.organization.findUnique({ where: { id } });
}

export type OrganizationRow = NonNullable<Awaited<ReturnType<typeof findOrganizationById>>>;
