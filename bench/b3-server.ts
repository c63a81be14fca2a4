// B3's two servers: `full` is Tollgate's API app with every middleware and a real database;
// `bare` is an Express hello-world, the baseline for what Express itself costs on this machine;
// `floor` is bare Express reading the same organization row with node-postgres; `quantities-floor`
// is bare Express running B2's hand-written quantities query, `state-floor` customer state's
// statement.
import { noTax } from '../domain/tax/rules.js';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import express from 'express';
import pg from 'pg';
import { pino } from 'pino';
import { AccessTokenCache } from '../domain/access-tokens/cache.js';
import { MeterCache } from '../domain/meters/cache.js';
import { createApp } from '../api/app.js';
import { createApiMetrics } from '../api/http/metrics.js';
import { createAuth } from '../api/auth/auth.js';
import { createDb } from '../infra/db.js';
import { LocalFileStorage } from '../integrations/local-disk/storage.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalStarters } from '../temporal/starters.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';
import { findLiveCustomerWithHoldings } from '../domain/customer-state/repository.js';
import { HAND_WRITTEN_QUANTITIES_SQL } from './b2-sql.js';

const mode = process.argv[2];

function listen(app: express.Express) {
  const server = app.listen(0, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

/** A floor: bare Express with one route over a node-postgres pool and nothing else. */
function floorServer(route: (app: express.Express, pool: pg.Pool) => void) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const app = express();
  route(app, new pg.Pool({ connectionString: databaseUrl, max: 10 }));
  listen(app);
}

if (mode === 'bare') {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  listen(app);
} else if (mode === 'floor') {
  floorServer((app, pool) =>
    app.get('/organizations/:id', async (req, res) => {
      const { rows } = await pool.query('SELECT * FROM organizations WHERE id = $1::uuid', [req.params.id]);
      res.json(rows[0]);
    }),
  );
} else if (mode === 'quantities-floor') {
  floorServer((app, pool) =>
    app.get('/quantities', async (req, res) => {
      const { customer_id: customerId, start, end } = req.query as Record<string, string>;
      const { rows } = await pool.query(HAND_WRITTEN_QUANTITIES_SQL, [customerId, start, end]);
      res.json(rows);
    }),
  );
} else if (mode === 'state-floor') {
  // Answered as the statement returns it: no token, no views.
  floorServer((app, pool) =>
    app.get('/customers/:id/state', async (req, res) => {
      const organizationId = String(req.query.organization_id);
      res.json(await findLiveCustomerWithHoldings(pool, [organizationId], { id: req.params.id }));
    }),
  );
} else if (mode === 'full') {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  // The measured route never touches Temporal (only /readyz does); a lazy connection is never opened.
  const temporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:7233' }) });
  const db = createDb(databaseUrl, { maxConnections: 10 });
  const accessTokens = new AccessTokenCache({ connectionString: databaseUrl }).start();
  const meters = new MeterCache({ connectionString: databaseUrl }).start();
  const workflows = temporalStarters(temporal, 'bench');
  const app = createApp({
    config: {
      TEMPORAL_TASK_QUEUE: 'bench',
      READINESS_TIMEOUT_MS: 5000,
      TRUST_PROXY: 'loopback',
      // Counted as in production (one upsert per request), with a budget the load never reaches.
      API_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
      CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
      publicUrl: 'http://127.0.0.1',
      CHECKOUT_TTL_SECONDS: 3600,
      processorMetadata: {},
    },
    settings: {
      version: 'bench',
      mode: 'sandbox',
      temporal_ui_url: null,
      temporal_namespace: 'default',
      dev_mailbox: false,
      stripe_publishable_key: null,
    },
    // Access logs are written as in production, to a sink that costs no disk.
    logger: pino({ level: 'info' }, pino.destination('/dev/null')),
    db,
    temporal,
    workflows,
    mailer: createMailer({ db, from: 'bench@localhost', logger: pino({ level: 'silent' }) }),
    webhookSender: createHttpWebhookSender({
      requireHttps: false,
      allowLoopback: true,
      allowPrivateNetworks: false,
    }),
    // The measured route stores no file; the store only has to exist.
    fileStorage: new LocalFileStorage({
      root: path.join(os.tmpdir(), 'tollgate-bench-files'),
      publicUrl: 'http://127.0.0.1',
      secret: 'bench-secret-bench-secret-bench-secret',
    }),
    auth: createAuth(db, {
      publicUrl: 'http://127.0.0.1',
      secret: 'bench-secret-bench-secret-bench-secret',
      trustedOrigins: [],
      rateLimitEnabled: false,
      logger: pino({ level: 'silent' }),
      mailer: createMailer({ db, from: 'bench@localhost', logger: pino({ level: 'silent' }) }),
      invitations: workflows.invitations,
    }),
    tax: noTax,
    accessTokens,
    meters,
    // B3's metrics-on run: request counting, and a registry a scraper reads during the load.
    ...(process.env.BENCH_METRICS === 'true' ? { metrics: { registry: createApiMetrics({ db }) } } : {}),
  });
  listen(app);
} else {
  throw new Error('usage: b3-server.ts full|floor|quantities-floor|state-floor|bare');
}
