import type { Db } from '../../infra/db.js';

export function findUserByEmailOrUsername(db: Db, by: { email: string } | { username: string }) {
  return db.user.findFirst({ where: by });
}

export function setUserRole(db: Db, id: string, role: string) {
  return db.user.update({ where: { id }, data: { role } });
}
