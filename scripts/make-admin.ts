// npm run make-admin -- <email or username>: makes that user a platform admin. Works against
// DATABASE_URL, or the project-local PostgreSQL that `npm start` runs.
import { loadConfigOrExit } from '../config/config.js';
import { createDb } from '../infra/db.js';
import { grantPlatformAdmin, UserNotFoundError } from '../domain/users/service.js';
import { localPostgresUrl } from './lib/postgres.js';

const identifier = process.argv[2];
if (!identifier) {
  console.error('usage: npm run make-admin -- <email or username>');
  process.exit(64);
}
const config = loadConfigOrExit();
const db = createDb(config.DATABASE_URL ?? localPostgresUrl(config.EMBEDDED_POSTGRES_PORT, 'tollgate'));
try {
  const { user, changed } = await grantPlatformAdmin(db, identifier);
  console.log(
    changed
      ? `${user.email} is now a platform admin (roles: ${user.role})`
      : `${user.email} already is an admin`,
  );
} catch (error) {
  if (!(error instanceof UserNotFoundError)) throw error;
  console.error(`tollgate: ${error.message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
