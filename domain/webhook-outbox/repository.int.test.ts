import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createOrganization } from '../../test/factories.js';
import { listUndispatchedOutboxEvents, recordEvent } from './repository.js';

describe('the outbox', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Events recorded within one millisecond share created_at and ids are random: only the insertion
  // sequence keeps `order.created` ahead of `order.paid` for the dispatcher.
  it('hands out the events of one transaction in the order they were recorded', async () => {
    const organization = await createOrganization(database.db);
    const at = new Date();
    await database.db.$transaction(async (tx) => {
      // Recorded concurrently, so that many land in the same millisecond.
      const recorded: Promise<void>[] = [];
      for (let index = 0; index < 40; index += 1) {
        recorded.push(
          recordEvent(tx, {
            organizationId: organization.id,
            type: index % 2 === 0 ? 'order.created' : 'order.paid',
            data: { id: `order-${index}`, index },
            at,
          }),
        );
      }
      await Promise.all(recorded);
    });
    const events = await listUndispatchedOutboxEvents(database.db, 100);
    const indexes = events
      .filter((event) => event.organizationId === organization.id)
      .map((event) => (event.payload as { data: { index: number } }).data.index);
    expect(indexes).toEqual(Array.from({ length: 40 }, (_, index) => index));
  });
});
