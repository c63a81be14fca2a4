import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createOrganization, createWebhookEndpoint } from '../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { readOperationalState } from './repository-operational.js';

// No worker here: nothing dispatches the outbox, so its backlog stays as the test leaves it.
describe('the queue gauges read from the database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('counts undispatched outbox events and the oldest one’s age, and disabled endpoints by reason', async () => {
    const { db } = database;
    expect(await readOperationalState(db.sql)).toEqual({
      outboxBacklog: 0,
      outboxOldestSeconds: 0,
      disabledEndpoints: { gone: 0, failing: 0, seller: 0 },
      dunning: 0,
    });
    const organization = await createOrganization(db, { name: 'Acme' });
    // Whatever the organization's own creation recorded.
    const before = (await readOperationalState(db.sql)).outboxBacklog;
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await db.outboxEvent.createMany({
      data: [
        {
          organizationId: organization.id,
          type: 'organization.updated',
          payload: {},
          createdAt: tenMinutesAgo,
        },
        { organizationId: organization.id, type: 'organization.updated', payload: {} },
        // Dispatched: not part of the backlog, however old.
        {
          organizationId: organization.id,
          type: 'organization.updated',
          payload: {},
          createdAt: new Date(Date.now() - 3_600_000),
          dispatchedAt: new Date(),
        },
      ],
    });
    const gone = await createWebhookEndpoint(db, organization.id);
    const failing = await createWebhookEndpoint(db, organization.id);
    const paused = await createWebhookEndpoint(db, organization.id);
    await createWebhookEndpoint(db, organization.id);
    await db.webhookEndpoint.update({
      where: { id: gone.id },
      data: { enabled: false, disabledReason: 'gone', disabledAt: new Date() },
    });
    await db.webhookEndpoint.update({
      where: { id: failing.id },
      data: { enabled: false, disabledReason: 'failing', disabledAt: new Date() },
    });
    await db.webhookEndpoint.update({ where: { id: paused.id }, data: { enabled: false } });

    const state = await readOperationalState(db.sql);
    expect(state.outboxBacklog).toBe(before + 2);
    expect(state.outboxOldestSeconds).toBeGreaterThanOrEqual(600);
    expect(state.outboxOldestSeconds).toBeLessThan(900);
    expect(state.disabledEndpoints).toEqual({ gone: 1, failing: 1, seller: 1 });
  });
});
