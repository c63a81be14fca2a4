// npm run oauth2:allow-web-grant -- <client_id>: lets that OAuth app use grant_type=web, which
// exchanges a signed-in user's web session for a token (docs/oauth2.md). Works against
// DATABASE_URL, or the project-local PostgreSQL that `npm start` runs.
import { loadConfigOrExit } from '../config/config.js';
import { createDb } from '../infra/db.js';
import { allowWebGrant, WebGrantRefused } from '../domain/oauth2/clients.js';
import { localPostgresUrl } from './lib/postgres.js';

const clientId = process.argv[2];
if (!clientId) {
  console.error('usage: npm run oauth2:allow-web-grant -- <client_id>');
  process.exit(64);
}
const config = loadConfigOrExit();
const db = createDb(config.DATABASE_URL ?? localPostgresUrl(config.EMBEDDED_POSTGRES_PORT, 'tollgate'));
try {
  const { changed } = await allowWebGrant(db, clientId);
  console.log(
    changed ? `${clientId} may now use the web grant` : `${clientId} already may use the web grant`,
  );
} catch (error) {
  if (!(error instanceof WebGrantRefused)) throw error;
  console.error(`tollgate: ${error.message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
